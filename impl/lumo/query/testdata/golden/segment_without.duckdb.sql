WITH r AS MATERIALIZED (SELECT NULLIF(t0."c_nome", '') AS g0 FROM "t_clientes" t0 WHERE NOT EXISTS (SELECT 1 FROM "t_pedidos" s1_0 WHERE s1_0."c_cliente_id" = t0."c_id") GROUP BY NULLIF(t0."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0 FROM r)
SELECT o0, z.a0 AS n_total FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $1
-- args: [10]

WITH r AS MATERIALIZED (SELECT NULLIF(t0."c_nome", '') AS g0 FROM "t_clientes" t0 LEFT JOIN (SELECT DISTINCT s1_0."c_cliente_id" AS k0 FROM "t_pedidos" s1_0) s1_s ON s1_s.k0 = t0."c_id" WHERE s1_s.k0 IS NULL GROUP BY NULLIF(t0."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0 FROM r)
SELECT o0, z.a0 AS n_total FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 COLLATE "C" ASC NULLS LAST LIMIT $1
-- args: [10]

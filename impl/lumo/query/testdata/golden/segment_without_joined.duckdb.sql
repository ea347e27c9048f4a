WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_segmento", '') AS g0, SUM(t0."c_valor") AS m0 FROM "t_pedidos" t0 LEFT JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" WHERE (t1."c_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "t_pedidos" s1_0 WHERE s1_0."c_cliente_id" = t1."c_id" AND (s1_0."c_situacao" = CAST($1 AS TEXT)))) GROUP BY NULLIF(t1."c_segmento", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $2
-- args: [Cancelada 10]

WITH r AS MATERIALIZED (SELECT NULLIF(t0."c_nome", '') AS g0, ROUND(COALESCE(s1_g.v, 0),
  0) AS g1 FROM "t_clientes" t0 LEFT JOIN (SELECT s1_0."c_cliente_id" AS k0, COUNT(s1_0."c_id") AS v FROM "t_pedidos" s1_0 LEFT JOIN (SELECT s2_0."c_pedido_id" AS k0, COUNT(s2_0."c_id") AS v FROM "t_itens" s2_0 GROUP BY +s2_0."c_pedido_id") s2_g ON s2_g.k0 = s1_0."c_id" WHERE (ROUND(COALESCE(s2_g.v, 0),
  0) >= ?1) GROUP BY +s1_0."c_cliente_id") s1_g ON s1_g.k0 = t0."c_id" LEFT JOIN (SELECT DISTINCT s3_0."c_cliente_id" AS k0 FROM "t_pedidos" s3_0 LEFT JOIN (SELECT s4_0."c_pedido_id" AS k0, COUNT(s4_0."c_id") AS v FROM "t_itens" s4_0 GROUP BY +s4_0."c_pedido_id") s4_g ON s4_g.k0 = s3_0."c_id" WHERE (ROUND(COALESCE(s4_g.v, 0),
  0) >= ?2)) s3_s ON s3_s.k0 = t0."c_id" WHERE s3_s.k0 IS NOT NULL GROUP BY NULLIF(t0."c_nome", ''),
  ROUND(COALESCE(s1_g.v, 0),
  0)),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT ?3
-- args: [2 2 10]

WITH r AS MATERIALIZED (SELECT g0, MAX(m0) AS m0, MAX(m1) AS m1 FROM (SELECT ROUND((CASE WHEN t2."c_id" IS NOT NULL THEN COALESCE(s1_g.v, 0) END),
  0) AS g0, SUM(t0."c_qtd") AS m0, CAST(NULL AS REAL) AS m1 FROM "t_itens" t0 LEFT JOIN "t_pedidos" t1 ON t0."c_pedido_id" = t1."c_id" LEFT JOIN "t_clientes" t2 ON t1."c_cliente_id" = t2."c_id" LEFT JOIN (SELECT s1_0."c_cliente_id" AS k0, COUNT(s1_0."c_id") AS v FROM "t_pedidos" s1_0 GROUP BY +s1_0."c_cliente_id") s1_g ON s1_g.k0 = t2."c_id" GROUP BY ROUND((CASE WHEN t2."c_id" IS NOT NULL THEN COALESCE(s1_g.v, 0) END),
  0) UNION ALL SELECT ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s2_g.v, 0) END),
  0) AS g0, CAST(NULL AS REAL) AS m0, MAX(ROUND(COALESCE(s3_g.v, 0),
  0)) AS m1 FROM "t_pedidos" t0 LEFT JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" LEFT JOIN (SELECT s2_0."c_cliente_id" AS k0, COUNT(s2_0."c_id") AS v FROM "t_pedidos" s2_0 GROUP BY +s2_0."c_cliente_id") s2_g ON s2_g.k0 = t1."c_id" LEFT JOIN (SELECT s3_0."c_pedido_id" AS k0, COUNT(DISTINCT s3_0."c_fornecedor_id") AS v FROM "t_itens" s3_0 GROUP BY +s3_0."c_pedido_id") s3_g ON s3_g.k0 = t0."c_id" GROUP BY ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s2_g.v, 0) END),
  0)) u GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, m1 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, MAX(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?1
-- args: [10]

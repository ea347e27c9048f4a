WITH r AS MATERIALIZED (SELECT (CASE WHEN (ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s1_g.v, 0) END),
  0) > (SELECT AVG(ROUND(COALESCE(s4_g.v, 0),
  0)) FROM "t_clientes" s3_0 LEFT JOIN (SELECT s4_0."c_cliente_id" AS k0, SUM(s4_0."c_valor") AS v FROM "t_pedidos" s4_0 GROUP BY +s4_0."c_cliente_id") s4_g ON s4_g.k0 = s3_0."c_id" LEFT JOIN (SELECT s5_0."c_cliente_id" AS k0, COUNT(s5_0."c_id") AS v FROM "t_pedidos" s5_0 GROUP BY +s5_0."c_cliente_id") s5_g ON s5_g.k0 = s3_0."c_id" WHERE (ROUND(COALESCE(s5_g.v, 0),
  0) > ?2))) THEN ?3 ELSE ?4 END) AS g0, SUM((ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s1_g.v, 0) END),
  0) / NULLIF((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE((SELECT SUM(ROUND(COALESCE(s7_g.v, 0),
  0)) FROM "t_clientes" s6_0 LEFT JOIN (SELECT s7_0."c_cliente_id" AS k0, SUM(s7_0."c_valor") AS v FROM "t_pedidos" s7_0 GROUP BY +s7_0."c_cliente_id") s7_g ON s7_g.k0 = s6_0."c_id"),
  0) END),
  0))) AS m0, SUM(t0."c_valor") AS m1 FROM "t_pedidos" t0 JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" LEFT JOIN (SELECT s1_0."c_cliente_id" AS k0, SUM(s1_0."c_valor") AS v FROM "t_pedidos" s1_0 WHERE s1_0."c_cliente_id" IN (SELECT s2_0."c_id" FROM "t_clientes" s2_0 WHERE (s2_0."c_segmento" = ?1)) GROUP BY +s1_0."c_cliente_id") s1_g ON s1_g.k0 = t1."c_id" WHERE (t1."c_segmento" = ?5) GROUP BY (CASE WHEN (ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s1_g.v, 0) END),
  0) > (SELECT AVG(ROUND(COALESCE(s4_g.v, 0),
  0)) FROM "t_clientes" s3_0 LEFT JOIN (SELECT s4_0."c_cliente_id" AS k0, SUM(s4_0."c_valor") AS v FROM "t_pedidos" s4_0 GROUP BY +s4_0."c_cliente_id") s4_g ON s4_g.k0 = s3_0."c_id" LEFT JOIN (SELECT s5_0."c_cliente_id" AS k0, COUNT(s5_0."c_id") AS v FROM "t_pedidos" s5_0 GROUP BY +s5_0."c_cliente_id") s5_g ON s5_g.k0 = s3_0."c_id" WHERE (ROUND(COALESCE(s5_g.v, 0),
  0) > ?2))) THEN ?3 ELSE ?4 END)),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, m1 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?6
-- args: [Varejo 0 1 0 Varejo 10]

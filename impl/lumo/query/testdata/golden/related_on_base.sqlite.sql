WITH d AS MATERIALIZED (SELECT NULLIF((CASE WHEN (ROUND(COALESCE(s1_g.v, 0),
  0) = ?1) THEN ?2 ELSE (CASE WHEN (ROUND(COALESCE(s1_g.v, 0),
  0) >= ?3) THEN ?4 ELSE ?5 END) END),
  '') AS g0, s2_g.v AS v, SUM(ROUND(COALESCE(s3_g.v, 0),
  0)) AS m0 FROM "t_clientes" t0 LEFT JOIN (SELECT s1_0."c_cliente_id" AS k0, COUNT(s1_0."c_id") AS v FROM "t_pedidos" s1_0 GROUP BY +s1_0."c_cliente_id") s1_g ON s1_g.k0 = t0."c_id" LEFT JOIN (SELECT s2_0."c_cliente_id" AS k0, MAX(s2_0."c_data") AS v FROM "t_pedidos" s2_0 GROUP BY +s2_0."c_cliente_id") s2_g ON s2_g.k0 = t0."c_id" LEFT JOIN (SELECT s3_0."c_cliente_id" AS k0, SUM(s3_0."c_valor") AS v FROM "t_pedidos" s3_0 GROUP BY +s3_0."c_cliente_id") s3_g ON s3_g.k0 = t0."c_id" LEFT JOIN (SELECT s4_0."c_cliente_id" AS k0, COUNT(s4_0."c_id") AS v FROM "t_pedidos" s4_0 WHERE (s4_0."c_situacao" = ?6) GROUP BY +s4_0."c_cliente_id") s4_g ON s4_g.k0 = t0."c_id" WHERE ROUND(COALESCE(s4_g.v, 0),
  0) < ?7 GROUP BY NULLIF((CASE WHEN (ROUND(COALESCE(s1_g.v, 0),
  0) = ?1) THEN ?2 ELSE (CASE WHEN (ROUND(COALESCE(s1_g.v, 0),
  0) >= ?3) THEN ?4 ELSE ?5 END) END),
  ''),
  s2_g.v),
  r AS MATERIALIZED (SELECT g0, SUM(m0) AS m0, COUNT(v) AS m1 FROM d GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, COALESCE(m1, 0) AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, (SELECT COUNT(DISTINCT v) FROM d) AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?8
-- args: [0 Sem pedidos 3 Frequente Ocasional Ativa 3 10]

WITH r AS MATERIALIZED (SELECT NULLIF((CASE WHEN COALESCE(prefix(t0."c_tipo_f", $1),
  1 = 0) THEN CAST($2 AS TEXT) ELSE CAST($3 AS TEXT) END),
  '') AS g0, SUM((CASE WHEN (t0."c_prioridade" IN (CAST($4 AS TEXT),
  CAST($5 AS TEXT))) THEN CAST($6 AS DECIMAL(1, 0)) ELSE CAST($7 AS DECIMAL(1, 0)) END)) AS m0, SUM(CASE WHEN COALESCE(prefix(t0."c_tipo_f", $8),
  1 = 0) THEN t0."c_valor" END) AS m1, COUNT(CASE WHEN (t0."c_prioridade" IN (CAST($9 AS TEXT),
  CAST($10 AS TEXT))) THEN t0."c_id" END) AS m2, COUNT(CASE WHEN (NOT COALESCE(prefix(t0."c_tipo_f", $11),
  1 = 0)) THEN t0."c_id" END) AS m3 FROM "t_pedidos" t0 WHERE (prefix((CASE WHEN COALESCE(prefix(t0."c_tipo_f", $12),
  1 = 0) THEN CAST($13 AS TEXT) ELSE CAST($14 AS TEXT) END),
  $15)) GROUP BY NULLIF((CASE WHEN COALESCE(prefix(t0."c_tipo_f", $1),
  1 = 0) THEN CAST($2 AS TEXT) ELSE CAST($3 AS TEXT) END),
  '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, CAST(m1 AS DOUBLE) AS o2, CAST(COALESCE(m2, 0) AS DOUBLE) AS o3, CAST(COALESCE(m3, 0) AS DOUBLE) AS o4 FROM r)
SELECT o0, o1, o2, o3, o4, z.a0 AS n_total, z.a1 AS s0, CAST(z.a2 AS DOUBLE) AS s1, CAST(COALESCE(z.a3, 0) AS DOUBLE) AS s2, CAST(COALESCE(z.a4, 0) AS DOUBLE) AS s3 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2, SUM(m2) AS a3, SUM(m3) AS a4 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $16
-- args: [promo Sim Não 1-URGENTE 2-ALTA 1 0 promo 1-URGENTE 2-ALTA promo promo sim nao s 10]

WITH r AS MATERIALIZED (SELECT substr(t0."c_data", 1, 7) AS g0, SUM(t0."c_valor") AS s0, COUNT(t0."c_valor") AS c0 FROM "t_vendas" t0 WHERE (CAST(strftime('%w', t0."c_data") AS INTEGER) IN (?1, ?2)) GROUP BY substr(t0."c_data", 1, 7)),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, (s0 / NULLIF(CAST(c0 AS REAL),
  0)) AS o1 FROM r WHERE CASE WHEN ABS((s0 / NULLIF(CAST(c0 AS REAL),
  0))) < 1 THEN ROUND((s0 / NULLIF(CAST(c0 AS REAL),
  0)),
  12) ELSE ROUND((s0 / NULLIF(CAST(c0 AS REAL),
  0)),
  6) END > ?3)
SELECT o0, o1, z.a0 AS n_total, (z.a1 / NULLIF(CAST(z.a2 AS REAL),
  0)) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(s0) AS a1, SUM(c0) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?4
-- args: [0 6 300 12]

WITH r AS MATERIALIZED (SELECT substr(t0."c_data", 1, 7) AS g0, SUM(t0."c_valor") AS s0, COUNT(t0."c_valor") AS c0 FROM "t_vendas" t0 WHERE (CAST(strftime('%w', t0."c_data") AS INTEGER) IN (?1, ?2)) GROUP BY substr(t0."c_data", 1, 7)),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, (s0 / NULLIF(CAST(c0 AS REAL),
  0)) AS o1 FROM r WHERE CASE WHEN ABS((s0 / NULLIF(CAST(c0 AS REAL),
  0))) < 1 THEN ROUND((s0 / NULLIF(CAST(c0 AS REAL),
  0)),
  12) ELSE ROUND((s0 / NULLIF(CAST(c0 AS REAL),
  0)),
  6) END > ?3)
SELECT o0, o1, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT SUM(s0) / NULLIF(CAST(SUM(c0) AS REAL),
  0) FROM f) AS s0 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT ?4
-- args: [0 6 300 12]

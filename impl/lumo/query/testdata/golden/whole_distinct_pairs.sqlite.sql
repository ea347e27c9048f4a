WITH d AS MATERIALIZED (SELECT NULLIF(t0."c_canal", '') AS g0, NULLIF(t0."c_cliente", '') AS v, SUM(t0."c_valor") AS m1 FROM "t_vendas" t0 GROUP BY NULLIF(t0."c_canal", ''),
  NULLIF(t0."c_cliente", '')),
  r AS MATERIALIZED (SELECT g0, COUNT(v) AS m0, SUM(m1) AS m1 FROM d GROUP BY g0),
  w AS MATERIALIZED (SELECT r.*, SUM(CAST(m1 AS REAL)) OVER () AS w0 FROM r),
  f AS MATERIALIZED (SELECT w.*, g0 AS o0, COALESCE(m0, 0) AS o1, (CAST(m1 AS REAL) / NULLIF(w0, 0)) AS o2 FROM w)
SELECT o0, o1, o2, z.a0 AS n_total, (SELECT COUNT(DISTINCT v) FROM d) AS s0, (CAST(z.a1 AS REAL) / NULLIF((SELECT MAX(w0) FROM w),
  0)) AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m1) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?1
-- args: [10]

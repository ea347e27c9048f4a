WITH r AS MATERIALIZED (SELECT NULLIF(t0."d0", '') AS g0, SUM(t0."m1_n") AS m0, MAX(t0."m0_max") AS m1 FROM "r_por_uf" t0 GROUP BY NULLIF(t0."d0", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1, m1 AS o2 FROM r WHERE ROUND(COALESCE(m0, 0),
  0) > ?1)
SELECT o0, o1, o2, z.a0 AS n_total, COALESCE(z.a1, 0) AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, MAX(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?2
-- args: [3 10]

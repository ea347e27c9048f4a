WITH r AS MATERIALIZED (SELECT substr(t0."t", 1, 7) AS g0, NULLIF(t0."d0", '') AS g1, SUM(t0."m0_sum") AS m0 FROM "r_por_mes" t0 WHERE (t0."t" >= ?1 AND t0."t" < ?2) GROUP BY substr(t0."t", 1, 7),
  NULLIF(t0."d0", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT ?3
-- args: [2026-08-01 2026-10-01 31]

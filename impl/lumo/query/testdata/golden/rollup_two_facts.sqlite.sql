WITH r AS MATERIALIZED (SELECT g0, MAX(m0) AS m0, MAX(m1) AS m1 FROM (SELECT NULLIF(t0."d0", '') AS g0, SUM(t0."m0_sum") AS m0, CAST(NULL AS REAL) AS m1 FROM "r_vendas_diarias" t0 GROUP BY NULLIF(t0."d0", '') UNION ALL SELECT NULLIF(t0."d0", '') AS g0, CAST(NULL AS REAL) AS m0, SUM(t0."m0_sum") AS m1 FROM "r_automatico" t0 GROUP BY NULLIF(t0."d0", '')) u GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, m0 AS o1, m1 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?1
-- args: [10]

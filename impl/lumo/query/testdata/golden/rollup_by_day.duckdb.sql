WITH r AS MATERIALIZED (SELECT strftime(date_trunc('month', t0."t"),
  '%Y-%m') AS g0, NULLIF(t0."d0", '') AS g1, SUM(t0."m0_sum") AS m0, SUM(t0."m0_sum") AS s1, SUM(t0."m0_n") AS c1, COUNT(DISTINCT NULLIF(t0."d2", '')) AS m2 FROM "r_por_dia" t0 WHERE (t0."d1" = $1) AND (t0."t" >= CAST($2 AS TIMESTAMP) AND t0."t" < CAST($3 AS TIMESTAMP)) AND (contains(t0."d2_f", $4)) GROUP BY date_trunc('month', t0."t"),
  NULLIF(t0."d0", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2, (s1 / NULLIF(CAST(c1 AS DOUBLE),
  0)) AS o3, COALESCE(m2, 0) AS o4 FROM r)
SELECT o0, o1, o2, o3, o4, z.a0 AS n_total, z.a1 AS s0, (z.a2 / NULLIF(CAST(z.a3 AS DOUBLE),
  0)) AS s1, (SELECT COUNT(DISTINCT NULLIF(t0."d2", '')) FROM "r_por_dia" t0 WHERE (t0."d1" = $5) AND (t0."t" >= CAST($6 AS TIMESTAMP) AND t0."t" < CAST($7 AS TIMESTAMP)) AND (contains(t0."d2_f", $8))) AS s2 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(s1) AS a2, SUM(c1) AS a3 FROM f) z ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $9
-- args: [Ativa 2026-09-01 2026-10-01 i Ativa 2026-09-01 2026-10-01 i 31]

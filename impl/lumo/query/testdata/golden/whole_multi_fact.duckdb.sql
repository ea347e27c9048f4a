WITH r AS MATERIALIZED (SELECT g0, MAX(m0) AS m0, MAX(m1) AS m1 FROM (SELECT NULLIF(t1."c_uf", '') AS g0, SUM(e.m0) AS m0, NULL AS m1 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor") AS m0 FROM "t_vendas" t0 GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '') UNION ALL SELECT NULLIF(t1."c_uf", '') AS g0, NULL AS m0, SUM(e.m1) AS m1 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_meta") AS m1 FROM "t_metas" t0 GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '')) u GROUP BY g0),
  w AS MATERIALIZED (SELECT r.*, SUM(CAST(m0 AS DOUBLE)) OVER () AS w0 FROM r),
  f AS MATERIALIZED (SELECT w.*, g0 AS o0, (CAST(m0 AS DOUBLE) / NULLIF(w0, 0)) AS o1, m1 AS o2 FROM w WHERE CASE WHEN ABS((CAST(m0 AS DOUBLE) / NULLIF(w0, 0))) < 1 THEN ROUND((CAST(m0 AS DOUBLE) / NULLIF(w0, 0)),
  12) ELSE ROUND((CAST(m0 AS DOUBLE) / NULLIF(w0, 0)),
  6) END > CAST($1 AS DECIMAL(1, 0)))
SELECT o0, o1, o2, z.a0 AS n_total, (CAST(z.a1 AS DOUBLE) / NULLIF((SELECT MAX(w0) FROM w),
  0)) AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $2
-- args: [0 10]

WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_uf", '') AS g0, SUM(e.m0) AS m0 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor") AS m0 FROM "t_vendas" t0 GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '')),
  w AS MATERIALIZED (SELECT r.*, MAX(CAST(m0 AS DOUBLE)) OVER () AS w0 FROM r),
  f AS MATERIALIZED (SELECT w.*, g0 AS o0, m0 AS o1 FROM w WHERE (CASE WHEN ABS((w0 - CAST(m0 AS DOUBLE))) < 1 THEN ROUND((w0 - CAST(m0 AS DOUBLE)),
  12) ELSE ROUND((w0 - CAST(m0 AS DOUBLE)),
  6) END = CAST($1 AS DECIMAL(1, 0))))
SELECT o0, o1, z.a0 AS n_total, z.a1 AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $2
-- args: [0 10]

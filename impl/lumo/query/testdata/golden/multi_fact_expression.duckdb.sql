WITH r AS MATERIALIZED (SELECT g0, MAX(m0) AS m0, MAX(m1) AS m1, MAX(m2) AS m2 FROM (SELECT NULLIF(t1."c_uf", '') AS g0, SUM(e.m0) AS m0, SUM(e.m1) AS m1, NULL AS m2 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor_liq") AS m0, SUM(t0."c_custo") AS m1 FROM "t_vendas" t0 GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '') UNION ALL SELECT NULLIF(t1."c_uf", '') AS g0, NULL AS m0, NULL AS m1, SUM(e.m2) AS m2 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_meta") AS m2 FROM "t_metas" t0 WHERE t0."c_mes" >= CAST($1 AS DATE) GROUP BY t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '')) u GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, ((CAST(m0 AS DOUBLE) - CAST(m1 AS DOUBLE)) / NULLIF(CAST(m0 AS DOUBLE),
  0)) AS o1, m2 AS o2 FROM r)
SELECT o0, o1, o2, z.a0 AS n_total, ((CAST(z.a1 AS DOUBLE) - CAST(z.a2 AS DOUBLE)) / NULLIF(CAST(z.a1 AS DOUBLE),
  0)) AS s0, z.a3 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2, SUM(m2) AS a3 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $2
-- args: [2026-01-01 10]

WITH r AS MATERIALIZED (SELECT g0, MAX(m0) AS m0, MAX(m1) AS m1, MAX(m2) AS m2 FROM (SELECT NULLIF(t1."c_uf", '') AS g0, SUM(e.m0) AS m0, SUM(e.m1) AS m1, CAST(NULL AS REAL) AS m2 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_valor_liq") AS m0, SUM(t0."c_custo") AS m1 FROM "t_vendas" t0 GROUP BY +t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '') UNION ALL SELECT NULLIF(t1."c_uf", '') AS g0, CAST(NULL AS REAL) AS m0, CAST(NULL AS REAL) AS m1, SUM(e.m2) AS m2 FROM (SELECT t0."c_loja_id" AS k0_0, SUM(t0."c_meta") AS m2 FROM "t_metas" t0 WHERE t0."c_mes" >= ?1 GROUP BY +t0."c_loja_id") e LEFT JOIN "t_lojas" t1 ON e.k0_0 = t1."c_id" GROUP BY NULLIF(t1."c_uf", '')) u GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, ((CAST(m0 AS REAL) - CAST(m1 AS REAL)) / NULLIF(CAST(m0 AS REAL),
  0)) AS o1, m2 AS o2 FROM r)
SELECT o0, o1, o2, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, ((CAST((SELECT SUM(m0) FROM f) AS REAL) - CAST((SELECT SUM(m1) FROM f) AS REAL)) / NULLIF(CAST((SELECT SUM(m0) FROM f) AS REAL),
  0)) AS s0, (SELECT SUM(m2) FROM f) AS s1 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT ?2
-- args: [2026-01-01 10]

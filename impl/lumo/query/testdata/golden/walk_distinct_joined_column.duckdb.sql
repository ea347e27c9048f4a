WITH r AS MATERIALIZED (SELECT NULLIF(t0."c_canal", '') AS g0, COUNT(DISTINCT NULLIF(t1."c_nome", '')) AS m0, GROUPING(NULLIF(t0."c_canal", '')) AS gt FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" GROUP BY GROUPING SETS ((NULLIF(t0."c_canal", '')),
  ())),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r WHERE gt = 0)
SELECT o0, o1, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT m0 FROM r WHERE gt = 1) AS s0 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT $1
-- args: [10]

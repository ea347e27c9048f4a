WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_uf", '') AS g0, COUNT(DISTINCT NULLIF(t0."c_cliente", '')) AS m0, GROUPING(NULLIF(t1."c_uf", '')) AS gt FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" WHERE (t0."c_canal" COLLATE "C" = $1) GROUP BY GROUPING SETS ((NULLIF(t1."c_uf", '')),
  ())),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r WHERE gt = 0)
SELECT o0, o1, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT m0 FROM r WHERE gt = 1) AS s0 FROM f ORDER BY f.o0 COLLATE "C" ASC NULLS LAST LIMIT $2
-- args: [Site 10]

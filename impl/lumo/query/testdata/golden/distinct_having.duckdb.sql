WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_uf", '') AS g0, COUNT(DISTINCT NULLIF(t0."c_cliente", '')) AS m0, SUM(t0."c_valor") AS m1 FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" WHERE (t0."c_canal" = $1) GROUP BY NULLIF(t1."c_uf", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1, m1 AS o2 FROM r WHERE ROUND(COALESCE(m0, 0),
  0) > CAST($2 AS DECIMAL(1, 0)))
SELECT o0, o1, o2, z.a0 AS n_total, (SELECT COUNT(DISTINCT NULLIF(t0."c_cliente", '')) FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" WHERE (t0."c_canal" = $3) AND EXISTS (SELECT 1 FROM f WHERE f.g0 IS NOT DISTINCT FROM NULLIF(t1."c_uf", ''))) AS s0, z.a1 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m1) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $4
-- args: [Site 2 Site 10]

WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_uf", '') AS g0, COUNT(DISTINCT NULLIF(t0."c_cliente", '')) AS m0 FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" GROUP BY NULLIF(t1."c_uf", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r WHERE ROUND(COALESCE(m0, 0),
  0) > ?1)
SELECT o0, o1, z.a0 AS n_total, (SELECT COUNT(DISTINCT NULLIF(t0."c_cliente", '')) FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" WHERE EXISTS (SELECT 1 FROM f WHERE f.g0 IS NULLIF(t1."c_uf", ''))) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?2
-- args: [2 10]

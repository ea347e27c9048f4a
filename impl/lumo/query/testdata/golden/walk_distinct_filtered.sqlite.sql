WITH d AS MATERIALIZED (SELECT NULLIF(t1."c_uf", '') AS g0, NULLIF(t0."c_cliente", '') AS v FROM "t_vendas" t0 LEFT JOIN "t_lojas" t1 ON t0."c_loja_id" = t1."c_id" WHERE (t0."c_canal" = ?1) GROUP BY NULLIF(t1."c_uf", ''),
  NULLIF(t0."c_cliente", '')),
  r AS MATERIALIZED (SELECT g0, COUNT(v) AS m0 FROM d GROUP BY g0),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, (SELECT COUNT(DISTINCT v) FROM d) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?2
-- args: [Site 10]

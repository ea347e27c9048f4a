WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_categoria", '') AS g0, SUM(CASE WHEN (NULLIF(t0."c_situacao", '') = ?2) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?1 - t0."c_desconto")),
  0) END) AS m0, SUM(CASE WHEN (t0."c_promo" = ?4) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?3 - t0."c_desconto")),
  0) END) AS m1, SUM(ROUND(((t0."c_preco" * t0."c_qtd") * (?5 - t0."c_desconto")),
  0)) AS m2, COUNT(CASE WHEN (NULLIF(t0."c_prioridade", '') = ?6) THEN t0."c_id" END) AS m3, SUM(CASE WHEN (NULLIF(t1."c_categoria", '') = ?8) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?7 - t0."c_desconto")),
  0) END) AS m4 FROM "t_pedidos" t0 LEFT JOIN "t_produtos" t1 ON t0."c_produto_id" = t1."c_id" GROUP BY NULLIF(t1."c_categoria", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, CAST(m0 AS REAL) AS o1, (CAST(m1 AS REAL) / NULLIF(CAST(m2 AS REAL),
  0)) AS o2, CAST(COALESCE(m3, 0) AS REAL) AS o3, CAST(m4 AS REAL) AS o4 FROM r)
SELECT o0, o1, o2, o3, o4, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, CAST((SELECT SUM(m0) FROM f) AS REAL) AS s0, (CAST((SELECT SUM(m1) FROM f) AS REAL) / NULLIF(CAST((SELECT SUM(m2) FROM f) AS REAL),
  0)) AS s1, CAST((SELECT COALESCE(SUM(m3),
  0) FROM f) AS REAL) AS s2, CAST((SELECT SUM(m4) FROM f) AS REAL) AS s3 FROM f ORDER BY f.o0 ASC NULLS LAST LIMIT ?9
-- args: [1 Ativa 1 1 1 Urgente 1 Ferramentas 10]

WITH r AS MATERIALIZED (SELECT NULLIF(t1."c_categoria", '') AS g0, SUM(CASE WHEN (t0."c_situacao" = ?2) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?1 - t0."c_desconto")),
  0) END) AS m0, SUM(CASE WHEN (t0."c_promo" = ?4) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?3 - t0."c_desconto")),
  0) END) AS m1, SUM(ROUND(((t0."c_preco" * t0."c_qtd") * (?5 - t0."c_desconto")),
  0)) AS m2, COUNT(CASE WHEN (t0."c_prioridade" = ?6) THEN t0."c_id" END) AS m3, SUM(CASE WHEN (t1."c_categoria" = ?8) THEN ROUND(((t0."c_preco" * t0."c_qtd") * (?7 - t0."c_desconto")),
  0) END) AS m4 FROM "t_pedidos" t0 LEFT JOIN "t_produtos" t1 ON t0."c_produto_id" = t1."c_id" GROUP BY NULLIF(t1."c_categoria", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, CAST(m0 AS REAL) AS o1, (CAST(m1 AS REAL) / NULLIF(CAST(m2 AS REAL),
  0)) AS o2, CAST(COALESCE(m3, 0) AS REAL) AS o3, CAST(m4 AS REAL) AS o4 FROM r)
SELECT o0, o1, o2, o3, o4, z.a0 AS n_total, CAST(z.a1 AS REAL) AS s0, (CAST(z.a2 AS REAL) / NULLIF(CAST(z.a3 AS REAL),
  0)) AS s1, CAST(COALESCE(z.a4, 0) AS REAL) AS s2, CAST(z.a5 AS REAL) AS s3 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, SUM(m1) AS a2, SUM(m2) AS a3, SUM(m3) AS a4, SUM(m4) AS a5 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?9
-- args: [1 Ativa 1 1 1 Urgente 1 Ferramentas 10]

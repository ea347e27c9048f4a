WITH r AS MATERIALIZED (SELECT SUM((t0."c_preco" - t1."c_custo")) AS m0, MAX((((t0."c_preco" * t0."c_qtd") * (CAST($1 AS DECIMAL(1, 0)) - t0."c_desconto")) / NULLIF(t0."c_qtd", 0))) AS m1 FROM "t_pedidos" t0 LEFT JOIN "t_produtos" t1 ON t0."c_produto_id" = t1."c_id" HAVING COUNT(*) > 0),
  f AS MATERIALIZED (SELECT r.*, m0 AS o0, m1 AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, z.a1 AS s0, z.a2 AS s1 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1, MAX(m1) AS a2 FROM f) z ORDER BY 1 LIMIT $2
-- args: [1 10]

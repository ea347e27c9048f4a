WITH r AS MATERIALIZED (SELECT NULLIF(t2."c_nome", '') AS g0, NULLIF(t4."c_nome", '') AS g1, SUM(t0."c_valor") AS m0 FROM "t_itens" t0 LEFT JOIN "t_clientes" t1 ON t0."c_cliente_id" = t1."c_id" LEFT JOIN "t_nacoes" t2 ON t1."c_nacao_id" = t2."c_id" JOIN "t_fornecedores" t3 ON t0."c_fornecedor_id" = t3."c_id" JOIN "t_nacoes" t4 ON t3."c_nacao_id" = t4."c_id" WHERE (t4."c_regiao" = $1) GROUP BY NULLIF(t2."c_nome", ''),
  NULLIF(t4."c_nome", '')),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, g1 AS o1, m0 AS o2 FROM r)
SELECT o0, o1, o2, (SELECT COUNT(*) FROM (SELECT 1 FROM f LIMIT 1000001) x) AS n_total, (SELECT SUM(m0) FROM f) AS s0 FROM f ORDER BY f.o0 ASC NULLS LAST, f.o1 ASC NULLS LAST LIMIT $2
-- args: [Europa 10]

WITH r AS MATERIALIZED (SELECT t0."c_id" AS g0, COUNT(t0."c_fornecedor_id") AS m0 FROM "t_itens" t0 LEFT JOIN "t_pedidos" t1 ON t0."c_pedido_id" = t1."c_id" WHERE ((t0."c_recebimento" > t0."c_compromisso")) AND (t1."c_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "t_itens" s1_0 WHERE s1_0."c_pedido_id" = t1."c_id" AND ((s1_0."c_recebimento" > s1_0."c_compromisso")) AND s1_0."c_fornecedor_id" <> t0."c_fornecedor_id")) AND t0."c_fornecedor_id" > CAST($1 AS DECIMAL(1, 0)) GROUP BY t0."c_id"),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, COALESCE(z.a1, 0) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT $2
-- args: [0 10]

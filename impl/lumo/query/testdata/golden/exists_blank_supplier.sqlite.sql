WITH r AS MATERIALIZED (SELECT t0."c_fornecedor_id" AS g0, COUNT(t0."c_id") AS m0 FROM "t_itens" t0 LEFT JOIN "t_pedidos" t1 ON t0."c_pedido_id" = t1."c_id" LEFT JOIN (SELECT s1_0."c_pedido_id" AS k0, COUNT(DISTINCT s1_0."c_fornecedor_id") AS v FROM "t_itens" s1_0 GROUP BY +s1_0."c_pedido_id") s1_g ON s1_g.k0 = t1."c_id" LEFT JOIN (SELECT s2_0."c_pedido_id" AS k0, COUNT(DISTINCT s2_0."c_fornecedor_id") AS v FROM "t_itens" s2_0 WHERE ((s2_0."c_recebimento" > s2_0."c_compromisso")) GROUP BY +s2_0."c_pedido_id") s2_g ON s2_g.k0 = t1."c_id" WHERE ((t0."c_recebimento" > t0."c_compromisso")) AND ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s1_g.v, 0) END),
  0) > ?1 AND (ROUND((CASE WHEN t1."c_id" IS NOT NULL THEN COALESCE(s2_g.v, 0) END),
  0) = ?2) GROUP BY t0."c_fornecedor_id"),
  f AS MATERIALIZED (SELECT r.*, g0 AS o0, COALESCE(m0, 0) AS o1 FROM r)
SELECT o0, o1, z.a0 AS n_total, COALESCE(z.a1, 0) AS s0 FROM f CROSS JOIN (SELECT COUNT(*) AS a0, SUM(m0) AS a1 FROM f) z ORDER BY f.o0 ASC NULLS LAST LIMIT ?3
-- args: [1 1 10]

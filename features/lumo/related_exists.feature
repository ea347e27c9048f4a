Feature: Filters on the distinct count of related rows, asked of those rows themselves
  A question on line items may filter on a column of their order that counts the distinct values
  of its line items (count_distinct([Itens.Fornecedor]), optionally onde a condition): the orders
  with more than one supplier, those with only one late supplier (TPC-H Q21). The line item is
  then one of the rows its order counts, so, when its own supplier is filled and it meets the
  condition, "more than one" is "another line item of the order has another supplier" and
  "exactly one" is "no other late line item has another supplier": DuckDB answers such filters
  as EXISTS and NOT EXISTS, the other engines as the count; the answers are the same. A blank
  supplier is not counted, a supplier missing from Fornecedores is (its key is filled), and a
  line item whose order is missing reads the counts blank, which no such filter keeps.

  features/testdata/late holds the app; the expected answers are worked out by hand from its
  CSVs, each order's suppliers (late ones marked *) written beside each scenario:
    1: 1*, 1*   2: 1*, 2   3: 1*, 2*, 3   4: 1*, 1, 2   5: blank*, 2*   6: blank*, 1*, 2
    7: 99*, 1* (99 is no supplier)   8: 2*, 3, 3   9 (situação O): 1*, 2, 3
  and line items 24 (order 50, missing) and 25 (no order), both late.

  Background:
    Given the workspace in "testdata/late" is imported
    And I am connected as "lia"

  @L-Q02 @L-Q17 @own-setup
  Scenario: TPC-H Q21's filters: late line items of finished orders with several suppliers and only one late
    # Fornecedores > 1 and Fornecedores com atraso = 1, of the late items of orders in situação F:
    # order 2 item 3 (Alfa), order 4 item 8 (Alfa), order 6 items 13 (blank supplier) and 14 (Alfa),
    # order 8 item 18 (Beta). Orders 1 and 5 have one supplier, 3 and 7 two late ones, 9 is not F.
    When I call "query" with '{"appId": "$app:entregas", "fields": [{"ref": "Fornecedores.Fornecedor"}, {"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "Itens.Recebido com atraso", "op": "=", "value": 1}, {"ref": "Pedidos.Fornecedores", "op": ">", "value": 1}, {"ref": "Pedidos.Fornecedores com atraso", "op": "=", "value": 1}, {"ref": "Pedidos.Situação", "op": "=", "value": "F"}], "orderBy": [{"ref": "Itens.Id", "agg": "count", "dir": "desc"}, {"ref": "Fornecedores.Fornecedor", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Alfa", 3], ["Beta", 1], [null, 1]]'
    # The same for the items of a named supplier: item 13 leaves.
    When I call "query" with '{"appId": "$app:entregas", "fields": [{"ref": "Fornecedores.Fornecedor"}, {"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "Itens.Recebido com atraso", "op": "=", "value": 1}, {"ref": "Pedidos.Fornecedores", "op": ">", "value": 1}, {"ref": "Pedidos.Fornecedores com atraso", "op": "=", "value": 1}, {"ref": "Pedidos.Situação", "op": "=", "value": "F"}, {"ref": "Fornecedores.Fornecedor", "op": "!=", "value": ""}], "orderBy": [{"ref": "Itens.Id", "agg": "count", "dir": "desc"}, {"ref": "Fornecedores.Fornecedor", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Alfa", 3], ["Beta", 1]]'

  @L-Q02 @L-Q17 @own-setup
  Scenario: Only one late supplier, for line items whose order may be missing, and other counts
    # Late items of a filled supplier whose order has one late supplier: 1 and 2 (order 1), 3, 8,
    # 12 (order 5: the blank supplier is not counted), 14, 18 and 21; not 24 nor 25, without order.
    When I call "query" with '{"appId": "$app:entregas", "fields": [{"ref": "Itens.Id"}, {"ref": "Itens.Fornecedor", "agg": "count"}], "filters": [{"ref": "Itens.Recebido com atraso", "op": "=", "value": 1}, {"ref": "Pedidos.Fornecedores com atraso", "op": "=", "value": 1}, {"ref": "Itens.Fornecedor", "op": ">", "value": 0}], "orderBy": [{"ref": "Itens.Id", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[1, 1], [2, 1], [3, 1], [8, 1], [12, 1], [14, 1], [18, 1], [21, 1]]'
    # More than two suppliers and one late, for every item of a filled supplier, late or not:
    # order 9's three items (order 3 has two late suppliers).
    When I call "query" with '{"appId": "$app:entregas", "fields": [{"ref": "Itens.Fornecedor"}, {"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "Itens.Fornecedor", "op": ">", "value": 0}, {"ref": "Pedidos.Fornecedores", "op": ">", "value": 2}, {"ref": "Pedidos.Fornecedores com atraso", "op": "=", "value": 1}]}'
    Then the call succeeds
    And "rows" is '[[1, 1], [2, 1], [3, 1]]'

Feature: Numbers and dates at the edges of what the arguments can hold
  A number is what a 64-bit float holds: an integer written with a fraction or an exponent (6.0,
  6e0, 5e2) is that integer; a number no float holds (1e309, 400 digits, a nonzero 1e-400) is
  refused naming the field. Dates run from 0001-01-01 to 9999-12-31 on both engines (PostgreSQL
  has no year 0000). None of these is an internal error.

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-G03 @L-Q01
  Scenario Outline: An integer written as <how> is that integer
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Valor da venda", "op": ">", "value": <value>}], "limit": <limit>}'
    Then the call succeeds
    And "rows" is '[[144]]'

    Examples:
      | how         | value   | limit |
      | a fraction  | 5000.0  | 5.0   |
      | an exponent | 5e3     | 5e0   |
      | both        | 0.5e4   | 50e-1 |

  @L-G03 @L-Q01
  Scenario Outline: A number no float holds is refused naming <field>
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Valor da venda", "op": "<in>", "value": <value>}], "limit": <limit>}'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- <field>: número fora do intervalo aceito (0 ou, em módulo, de 5e-324 a 1,79e308); envie um valor dentro dele."

    Examples:
      | field               | in | value       | limit |
      | filters[0].value    | >  | 1e309       | 5     |
      | filters[0].value[1] | in | [1, -1e309] | 5     |
      | filters[0].value    | >  | 1e-400      | 5     |
      | limit               | >  | 1           | 1e400 |

  @L-G03 @L-Q01
  Scenario: An appId of 400 digits is refused naming appId
    When I call "get_app" with '{"appId": 9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999}'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- appId: número fora do intervalo aceito"

  @L-G03 @L-Q01
  Scenario: appId 1.0 is the app 1
    When I call "get_app" with '{"appId": 1.0}'
    Then the call succeeds

  @L-G03 @L-Q01
  Scenario Outline: The year 0000 is refused on every engine, naming the filter
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [<filter>]}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "<message>"

    Examples:
      | filter                                                                        | message                                                                           |
      | {"ref": "Vendas.Data", "op": ">=", "value": "0000-01-01"}                     | filters[0].value: "0000-01-01" não está no formato AAAA-MM-DD ou AAAA-MM-DD HH:mm (de 0001-01-01 a 9999-12-31) |
      | {"ref": "Metas.Mês", "op": "between", "value": ["0000-12-31", "2026-01-01"]}  | (de 0001-01-01 a 9999-12-31)                                                      |
      | {"ref": "Vendas.Data", "bucket": "month", "op": "=", "value": "0000-01"}      | filters[0].value: "0000-01" não está no formato AAAA-MM (de 0001-01 a 9999-12)    |

  @L-G03 @L-Q01
  Scenario: The first day of the calendar is accepted
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Data", "op": "between", "value": ["0001-01-01", "9999-12-30"]}]}'
    Then the call succeeds
    And "rows" is '[[20000]]'

Feature: Numbers and dates at the edges of what caderninho's arguments can hold
  As in lumo: an integer written with a fraction or an exponent is that integer; a number no
  64-bit float holds is refused naming the field; dates run from 0001-01-01 to 9999-12-31, since
  PostgreSQL has no year 0000. None of these is an internal error.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  @C-V01
  Scenario Outline: <tool> takes limit <limit> as the integer it is
    When I call "<tool>" with '{"limit": <limit>}'
    Then the call succeeds
    And "<list>" has 2 items

    Examples:
      | tool                    | limit | list         |
      | caderninho_transactions | 2.0   | transactions |
      | caderninho_transactions | 2e0   | transactions |
      | plan_transactions       | 20e-1 | records      |

  @C-V01
  Scenario Outline: A number no float holds is refused naming <field>
    When I call "<tool>" with '<args>'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- <field>: número fora do intervalo aceito"

    Examples:
      | tool                    | field            | args                                                                      |
      | caderninho_transactions | limit            | {"limit": 1e309}                                                          |
      | caderninho_sync         | waitSeconds      | {"idempotency_key": "chave-numeros-1", "waitSeconds": -1e309}             |
      | plan_categorize         | expectedRevision | {"idempotency_key": "chave-numeros-2", "expectedRevision": 1e-400}        |

  @C-V01 @C-W01
  Scenario: An expectedRevision beyond 2^53 is refused by the schema, not by the decoder
    When I call "plan_set_budget" with '{"idempotency_key": "chave-numeros-3", "confirmed": true, "space": "casa", "month": "2026-11", "category": "Mercado", "currency": "BRL", "amount": null, "expectedRevision": 1e20}'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "expectedRevision: deve ser no máximo 9007199254740991"

  @C-V01
  Scenario Outline: The year 0000 is refused in <tool>.<field>
    When I call "<tool>" with '{"<field>": "0000-01-01"}'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- <field>: o valor \"0000-01-01\" não está no formato data AAAA-MM-DD, de 0001-01-01 a 9999-12-31."

    Examples:
      | tool                    | field |
      | caderninho_transactions | from  |
      | plan_transactions       | to    |
      | plan_totals             | from  |

  @C-V01
  Scenario: The first and the last day of the calendar are accepted
    When I call "caderninho_transactions" with '{"from": "0001-01-01", "to": "9999-12-31", "limit": 1}'
    Then the call succeeds

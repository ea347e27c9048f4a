Feature: OFX amounts have one reading, and transactions outside their statement's period are flagged
  OFX has no thousands separator: an amount has at most one separator, a dot or a comma, and it is
  the decimal separator. Two separators, or exactly three digits after one (a thousands group as well
  as decimals, in a currency with fewer than three decimals), refuse the file with its line. A
  transaction dated outside its statement's DTSTART-DTEND is imported as the bank wrote it, with a
  warning naming file and line; the coverage stays the statement's period.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  # The file's first TRNAMT is on line 37 (-29.90, FITID AUR20261030042).
  @C-M01 @own-setup
  Scenario Outline: An amount that could be read two ways refuses the file with its line
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina" with its first <TRNAMT> set to "<amount>"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-valor-<key>", "connections": ["aurora-marina"]}'
    Then the call succeeds
    And "request.connections[*].status" is '["failed"]'
    And "request.connections[0].error.file" is '"extrato-2026-11.ofx"'
    And "request.connections[0].error.line" is '37'
    And the text contains "falhou e nada desta conexão mudou: extrato-2026-11.ofx:37: TRNAMT \"<amount>\" <reason>"
    And the revision of space "casa" is 4

    Examples:
      | key | amount   | reason                                                                                  |
      | 1   | -1.000   | é ambíguo: três dígitos depois do separador podem ser milhar ou casas decimais; o OFX não usa separador de milhar |
      | 2   | -1,000   | é ambíguo: três dígitos depois do separador podem ser milhar ou casas decimais           |
      | 3   | -1.000,50 | tem mais de um separador; o OFX não usa separador de milhar                             |
      | 4   | -1,000.50 | tem mais de um separador; o OFX não usa separador de milhar                             |
      | 5   | -1.000.000 | tem mais de um separador                                                              |

  @C-M01 @own-setup
  Scenario Outline: An amount with one separator reads its decimals whatever the separator
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina" with its first <TRNAMT> set to "<amount>"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-valor-ok-<key>", "connections": ["aurora-marina"]}'
    Then "request.connections[*].status" is '["imported"]'
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "from": "2026-10-30", "to": "2026-10-30", "text": "tarifa pacote"}'
    Then "transactions[*].amount.amountMinor" includes:
      """
      ["<minor>"]
      """

    Examples:
      | key | amount   | minor   |
      | 1   | -1000,5  | -100050 |
      | 2   | -1000.50 | -100050 |
      | 3   | -0.500   | -50     |
      | 4   | -1000    | -100000 |

  # The first STMTTRN starts on line 34; the statement covers 29/10/2026 to 06/11/2026.
  @C-P05 @C-R05 @own-setup
  Scenario: A transaction dated outside its statement's period is imported with a warning naming file and line
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina" with its first <DTPOSTED> set to "20261120120000[-3:BRT]"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-fora-do-periodo", "connections": ["aurora-marina"]}'
    Then the call succeeds
    And "request.connections[0].status" is '"imported"'
    And "request.connections[0].warnings" is:
      """
      [{"file": "extrato-2026-11.ofx", "line": 34,
        "message": "a transação de 20/11/2026 (FITID AUR20261030042) está fora do período do extrato (DTSTART 29/10/2026 a DTEND 06/11/2026); foi importada como o banco a informou, mas a cobertura da conta continua sendo o período do extrato: confira no banco se o extrato está completo"}]
      """
    And the text contains "  Aviso: extrato-2026-11.ofx:34: a transação de 20/11/2026 (FITID AUR20261030042) está fora do período do extrato"
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "from": "2026-11-20", "to": "2026-11-20"}'
    Then "transactions[*].amount.amountMinor" is '["-2990"]'
    When I call "caderninho_accounts" with '{"accounts": ["aurora-marina:12345-6"]}'
    Then "accounts[0].coverage.coveredTo" is '"2026-11-06"'
    When I call "caderninho_sync" with '{"idempotency_key": "sync-fora-do-periodo", "connections": ["aurora-marina"]}'
    Then "request.replay" is 'true'
    And "request.connections[0].warnings[0].line" is '34'

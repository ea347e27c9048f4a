Feature: caderninho bounds what it imports and what it answers
  A statement's text field (MEMO, NAME, FITID, ...) holds at most 1,000 characters: a longer one
  refuses the file with its line, so no answer carries it. One answer (text, structuredContent and
  its JSON text block) holds at most 4 MiB: a larger one is RESULT_TOO_LARGE, saying how to ask for less.

  Background:
    Given the demo installation is imported

  # The file's first MEMO is on line 39 (FITID AUR20261030042); 10 MiB = 10,485,760 characters.
  @C-S01 @C-R05 @own-setup
  Scenario: A statement with a 10 MB MEMO is refused with file and line, and nothing of it is imported
    Given I am connected as the local assistant
    And the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina" with its first <MEMO> set to 10485760 copies of "x"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-memo-gigante", "connections": ["aurora-marina"]}'
    Then the call succeeds
    And "request.connections" is:
      """
      [{"connection": "aurora-marina", "space": "casa", "status": "failed", "newFiles": 0, "newTransactions": 0, "duplicates": 0,
        "newAccounts": 0, "revisionBumped": false,
        "error": {"file": "extrato-2026-11.ofx", "line": 39, "message": "<MEMO> tem 10.485.760 caracteres, acima do limite de 1.000 por campo (o OFX prevê até 255 num MEMO e 32 num NAME); gere o arquivo de novo no banco ou encurte o texto de <MEMO> nessa linha"}}]
      """
    And the revision of space "casa" is 4
    When I call "caderninho_transactions" with '{"accounts": ["aurora-marina:12345-6"], "from": "2026-11-01"}'
    Then the call succeeds
    And "transactions" is '[]'

  @C-S01 @own-setup
  Scenario: A MEMO of exactly 1,000 characters imports
    Given I am connected as the local assistant
    And the statement "next/aurora-marina/extrato-2026-11.ofx" is placed in the folder of "aurora-marina" with its first <MEMO> set to 1000 copies of "x"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-memo-mil", "connections": ["aurora-marina"]}'
    Then "request.connections[*].status" is '["imported"]'
    # 10 new, plus AUR20261030042: its FITID is known, but with another MEMO it is another transaction.
    And "request.connections[*].newTransactions" is '[11]'

  @C-S01 @C-P05 @own-setup
  Scenario: An answer over the limit is RESULT_TOO_LARGE with how to ask for less; a smaller page answers
    Given I am connected as the local assistant with answers limited to 20000 bytes
    When I call "caderninho_transactions" with '{"space": "casa", "limit": 200}'
    Then the call fails with code "RESULT_TOO_LARGE"
    And the text contains "A resposta de caderninho_transactions teria "
    And the text contains " bytes, acima do limite de 20.000 bytes por resposta."
    And "error.suggestions" is '["Peça menos linhas (limit), um período menor (from/to) ou filtre mais (accounts, person, space, text)."]'
    When I call "plan_transactions" with '{"space": "casa", "limit": 200}'
    Then the call fails with code "RESULT_TOO_LARGE"
    And the text contains "A resposta de plan_transactions teria "
    When I call "caderninho_transactions" with '{"space": "casa", "limit": 5}'
    Then the call succeeds
    When I call "plan_transactions" with '{"space": "casa", "limit": 5}'
    Then the call succeeds

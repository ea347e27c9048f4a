Feature: the importer reads only statements inside the installation's folder
  A statement file or a connection's folder that is a symbolic link is read where it leads only when
  that is inside the folder of installation.yaml; otherwise the connection's import is refused, naming
  the file (or folder), why and how to fix it, and nothing of that connection changes.

  Background:
    Given the demo installation is imported
    And I am connected as the local assistant

  @C-V01 @own-setup
  Scenario: A statement linked from outside the installation is refused, naming the file, why and the fix
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is linked into the folder of "aurora-marina" from outside the installation
    When I call "caderninho_sync" with '{"idempotency_key": "sync-link-fora", "connections": ["aurora-marina"]}'
    Then the call succeeds
    And "request.connections[*].status" is '["failed"]'
    And "request.connections[0].error.file" is '"extrato-2026-11.ofx"'
    And "request.connections[0].error.line" is 'null'
    And the text contains "falhou e nada desta conexão mudou: extrato-2026-11.ofx: o arquivo é um link simbólico para "
    And the text contains ", fora da pasta da instalação ("
    And the text contains "); o caderninho só lê extratos dentro dela. Copie o extrato para a pasta da conexão no lugar do link."
    And the revision of space "casa" is 4

  @C-V01 @own-setup
  Scenario: A connection's folder linked to a folder outside the installation is refused
    Given the folder of "aurora-marina" is a link to a folder outside the installation holding its statements and "next/aurora-marina/extrato-2026-11.ofx"
    When I call "caderninho_sync" with '{"idempotency_key": "sync-pasta-fora", "connections": ["aurora-marina"]}'
    Then the call succeeds
    And "request.connections[*].status" is '["failed"]'
    And "request.connections[0].error.file" is 'null'
    And the text contains "é um link simbólico (ou passa por um) para "
    And the text contains "Mova os extratos para uma pasta dentro da instalação e aponte source do installation.yaml para ela."
    And the revision of space "casa" is 4

  @C-V01 @own-setup
  Scenario: A statement linked from inside the installation is imported
    Given the statement "next/aurora-marina/extrato-2026-11.ofx" is linked into the folder of "aurora-marina" from inside the installation
    When I call "caderninho_sync" with '{"idempotency_key": "sync-link-dentro", "connections": ["aurora-marina"]}'
    Then "request.connections[*].status" is '["imported"]'
    And "request.connections[*].newTransactions" is '[10]'

"""The endpoints that are not an answer family: health, the OpenAPI document and its page (``docs``), the rule
book (``rulebook``) and the table page (``page``). Each answer family (score, settlement, replay, catalogs,
problems) is one module of ``service``, holding its schemas, its renderer and its endpoint."""

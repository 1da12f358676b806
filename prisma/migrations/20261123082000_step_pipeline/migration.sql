-- Guards for statements the runtime pipelines without reading their result (SqlExecutor.defer):
-- a broken expectation raises, so the whole transaction fails instead of writing something wrong.
CREATE FUNCTION "tandem_expect"("ok" BOOLEAN, "message" TEXT) RETURNS BOOLEAN AS $$
BEGIN
  IF "ok" IS NOT TRUE THEN
    RAISE EXCEPTION '%', "message";
  END IF;
  RETURN TRUE;
END;
$$ LANGUAGE plpgsql;

-- Hand-written (issue 19 goal 4): the "data" version counter of the browse pages and dashboards
-- (lib/dashboards/data-version.ts). Their aggregates (filter-bar counts, evaluator pairs, agent
-- score counts, the no-executed-call cohort, the critic dashboard) are kept in memory under this
-- counter, which the DATABASE bumps in the writing transaction, whoever writes: once per
-- transaction, at its commit (a deferred trigger: the counter row is locked only while the
-- transaction commits, so a long import never holds up a run writing steps). The first changed row
-- of a transaction queues the one deferred bump (the WHEN clause marks the transaction with a
-- transaction-local setting; a rolled-back savepoint undoes the mark with its row). TRUNCATE bumps
-- at once.

-- Marks the transaction as queued (only called for its first changed row; see the WHEN below).
CREATE FUNCTION dashboard_data_queue() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('toolemu.data_queued', 'y', true);
  RETURN true;
END $$;

CREATE FUNCTION dashboard_data_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_bump(ARRAY['data']);
  RETURN NULL;
END $$;

DO $do$
DECLARE
  t record;
BEGIN
  -- Every table the cached aggregates read, and the changes that matter to them (a run's progress
  -- counters and an episode's status do not).
  FOR t IN SELECT * FROM (VALUES
      ('Trajectory', 'INSERT OR UPDATE OR DELETE'),
      ('Evaluation', 'INSERT OR UPDATE OR DELETE'),
      ('Step', 'INSERT OR UPDATE OR DELETE'),
      ('TestCase', 'INSERT OR UPDATE OR DELETE'),
      ('Toolkit', 'INSERT OR UPDATE OR DELETE'),
      ('TestCaseToolkit', 'INSERT OR UPDATE OR DELETE'),
      ('Campaign', 'INSERT OR UPDATE OR DELETE'),
      ('CampaignItem', 'INSERT OR UPDATE OR DELETE'),
      ('Run', 'INSERT OR UPDATE OF name, "createdAt" OR DELETE'),
      ('RunEpisode', 'INSERT OR UPDATE OF "runId", "sourceTrajectoryId" OR DELETE'),
      ('CriticAssessment', 'INSERT OR UPDATE OR DELETE'),
      ('CriticCheckpoint', 'INSERT OR UPDATE OR DELETE')) x(tbl, events)
  LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER %s ON %I DEFERRABLE INITIALLY DEFERRED FOR EACH ROW '
                   'WHEN (current_setting(''toolemu.data_queued'', true) IS DISTINCT FROM ''y'' AND dashboard_data_queue()) '
                   'EXECUTE FUNCTION dashboard_data_bump()', t.tbl || '_dashboard_data', t.events, t.tbl);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION dashboard_data_bump()', t.tbl || '_dashboard_data_truncate', t.tbl);
  END LOOP;
END $do$;

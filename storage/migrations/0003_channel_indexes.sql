-- 0003: indexes for the per-channel writes of the reaction flow.
--
-- Clearing a channel's action in flight (`DELETE FROM adjudications WHERE channel_id = ?`) and
-- mooting its open prompts (`UPDATE prompts ... WHERE channel_id = ? AND status IN (...)`) scanned
-- the whole table: bench/bench_storage.py measured a completed action's commit at 13x slower with
-- 100,000 encounters in the file than with 10. With these both are index lookups.

CREATE INDEX adjudications_by_channel ON adjudications (channel_id);
CREATE INDEX prompts_by_channel ON prompts (channel_id, status);

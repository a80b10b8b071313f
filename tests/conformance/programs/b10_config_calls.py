"""Tuning and configuration calls that PyFlink 2.3 has are accepted; a small job still runs and
the getters return what was set."""
from pyflink.common import Configuration, Duration, Types
from pyflink.datastream import (
    CheckpointingMode,
    ExternalizedCheckpointRetention,
    SlotSharingGroup,
    StreamExecutionEnvironment,
)

config = Configuration()
config.set_string('state.backend.type', 'hashmap')
config.set_string('taskmanager.numberOfTaskSlots', '4')  # one slot per slot sharing group
config.set_string('restart-strategy.type', 'fixed-delay')
config.set_string('restart-strategy.fixed-delay.attempts', '3')
config.set_string('restart-strategy.fixed-delay.delay', '1 s')
env = StreamExecutionEnvironment.get_execution_environment(config)
env.configure(Configuration().set_string('pipeline.name', 'config-calls'))
env.set_parallelism(1)
env.set_max_parallelism(64)
env.set_buffer_timeout(50)
env.enable_checkpointing(1000, CheckpointingMode.EXACTLY_ONCE)
checkpoints = env.get_checkpoint_config()
checkpoints.set_checkpoint_timeout(60000)
checkpoints.set_min_pause_between_checkpoints(500)
checkpoints.set_max_concurrent_checkpoints(1)
checkpoints.set_tolerable_checkpoint_failure_number(2)
checkpoints.set_externalized_checkpoint_retention(
    ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION)
checkpoints.enable_unaligned_checkpoints(False)
checkpoints.set_aligned_checkpoint_timeout(Duration.of_seconds(0))
config_ = env.get_config()
config_.set_auto_watermark_interval(100)
config_.set_latency_tracking_interval(0)
config_.enable_object_reuse()
config_.set_global_job_parameters({'answer': '42'})
config_.set_task_cancellation_interval(30000)
config_.enable_closure_cleaner()
group = SlotSharingGroup.builder('grouped').build()
env.register_slot_sharing_group(group)

print('parallelism', env.get_parallelism())
print('max parallelism', env.get_max_parallelism())
print('buffer timeout', env.get_buffer_timeout())
print('chaining', env.is_chaining_enabled())
print('checkpoint interval', env.get_checkpoint_interval())
print('checkpointing mode', env.get_checkpointing_mode())
print('checkpoint timeout', checkpoints.get_checkpoint_timeout())
print('min pause', checkpoints.get_min_pause_between_checkpoints())
print('max concurrent', checkpoints.get_max_concurrent_checkpoints())
print('tolerable failures', checkpoints.get_tolerable_checkpoint_failure_number())
print('auto watermark interval', config_.get_auto_watermark_interval())
print('object reuse', config_.is_object_reuse_enabled())
print('job parameters', config_.get_global_job_parameters())

ds = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT()).name('numbers').uid('src')
mapped = ds.map(lambda x: x * 10, output_type=Types.INT()) \
    .name('times ten').uid('times-ten').set_description('multiplies by ten') \
    .set_max_parallelism(8).set_buffer_timeout(10).slot_sharing_group('x') \
    .start_new_chain()
filtered = mapped.filter(lambda x: x != 30).set_uid_hash('0123456789abcdef0123456789abcdef') \
    .disable_chaining().slot_sharing_group(group).name('not thirty')
keyed = filtered.key_by(lambda x: x % 20).reduce(lambda a, b: a + b).uid('reduce') \
    .force_non_parallel()
print('names', ds.get_name(), '|', mapped.get_name(), '|', filtered.get_name())
keyed.print('out').name('printer').uid('sink').set_parallelism(1) \
    .set_description('prints').disable_chaining().slot_sharing_group('y')
env.execute()
env.disable_operator_chaining()
print('chaining after disable', env.is_chaining_enabled())
with env.from_collection(['a', 'b']).map(str.upper).execute_and_collect() as results:
    print('collected', list(results))

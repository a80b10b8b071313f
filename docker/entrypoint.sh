#!/usr/bin/env bash
# The image's entry point, with the commands Spark on Kubernetes gives its pods:
#   driver ARGS...    the driver pod of cluster deploy mode (spark-submit in client mode there)
#   executor          an executor pod (Spark sets the SPARK_* variables used below)
# and anything else runs as a command (pystream run ..., pystream-shell is not installed).
set -euo pipefail

case "${1:-}" in
  driver)
    shift
    exec "$SPARK_HOME/bin/spark-submit" \
      --conf "spark.driver.bindAddress=${SPARK_DRIVER_BIND_ADDRESS:-0.0.0.0}" \
      --conf "spark.executorEnv.SPARK_DRIVER_POD_IP=${SPARK_DRIVER_BIND_ADDRESS:-0.0.0.0}" \
      --deploy-mode client "$@"
    ;;
  executor)
    shift
    exec java ${SPARK_EXECUTOR_JAVA_OPTS:-} -Xms"$SPARK_EXECUTOR_MEMORY" \
      -Xmx"$SPARK_EXECUTOR_MEMORY" -cp "$SPARK_HOME/jars/*:${SPARK_CLASSPATH:-}" \
      org.apache.spark.scheduler.cluster.k8s.KubernetesExecutorBackend \
      --driver-url "$SPARK_DRIVER_URL" --executor-id "$SPARK_EXECUTOR_ID" \
      --cores "$SPARK_EXECUTOR_CORES" --app-id "$SPARK_APPLICATION_ID" \
      --hostname "$SPARK_EXECUTOR_POD_IP" \
      --resourceProfileId "${SPARK_RESOURCE_PROFILE_ID:-0}" \
      --podName "${SPARK_EXECUTOR_POD_NAME:-}"
    ;;
  *)
    exec "$@"
    ;;
esac

#!/bin/sh
# One-shot MinIO set-up for the storage service, run by the `minio-init` service of docker-compose.yml
# with the MinIO client image (`mc`). Safe to run again: every step is idempotent.
#
#   1. creates the buckets (public and private credential data); they stay private in MinIO itself,
#      because all reads go through the storage service;
#   2. creates a policy that allows object access to those buckets only;
#   3. creates the storage service's own access key with that policy, so the storage service never
#      holds the MinIO root credentials.
#
# Environment (set by docker-compose.yml):
#   MINIO_URL                       e.g. http://minio:9000
#   MINIO_ROOT_USER, MINIO_ROOT_PASSWORD
#   STORAGE_BUCKETS                 space-separated bucket names, e.g. "public-data private-data"
#   STORAGE_S3_ACCESS_KEY, STORAGE_S3_SECRET_KEY   the storage service's credentials (secret: 8+ characters)
set -eu

: "${MINIO_URL:?MINIO_URL is required}"
: "${MINIO_ROOT_USER:?MINIO_ROOT_USER is required}"
: "${MINIO_ROOT_PASSWORD:?MINIO_ROOT_PASSWORD is required}"
: "${STORAGE_BUCKETS:?STORAGE_BUCKETS is required}"
: "${STORAGE_S3_ACCESS_KEY:?STORAGE_S3_ACCESS_KEY is required}"
: "${STORAGE_S3_SECRET_KEY:?STORAGE_S3_SECRET_KEY is required}"

ALIAS=css
POLICY=css-storage-service

# MinIO is reported healthy before this runs (depends_on), but allow a short grace period anyway.
attempt=0
until mc alias set "$ALIAS" "$MINIO_URL" "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null 2>&1; do
  attempt=$((attempt + 1))
  if [ "$attempt" -ge 30 ]; then
    echo "minio-init: cannot reach MinIO at $MINIO_URL" >&2
    exit 1
  fi
  sleep 2
done

resources=""
for bucket in $STORAGE_BUCKETS; do
  mc mb --ignore-existing "$ALIAS/$bucket"
  resources="$resources\"arn:aws:s3:::$bucket\",\"arn:aws:s3:::$bucket/*\","
done
resources=${resources%,}

policy_file=$(mktemp)
trap 'rm -f "$policy_file"' EXIT
cat >"$policy_file" <<EOF
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": [
        "s3:GetBucketLocation",
        "s3:ListBucket",
        "s3:GetObject",
        "s3:PutObject",
        "s3:DeleteObject",
        "s3:ListBucketMultipartUploads",
        "s3:ListMultipartUploadParts",
        "s3:AbortMultipartUpload"
      ],
      "Resource": [$resources]
    }
  ]
}
EOF
# `policy create` replaces an existing policy of the same name, so bucket changes are picked up.
mc admin policy create "$ALIAS" "$POLICY" "$policy_file"

# `user add` on an existing user updates its secret key.
mc admin user add "$ALIAS" "$STORAGE_S3_ACCESS_KEY" "$STORAGE_S3_SECRET_KEY"
# Attaching a policy that is already attached is reported as an error by mc: accept that case only.
if ! mc admin policy attach "$ALIAS" "$POLICY" --user "$STORAGE_S3_ACCESS_KEY" >/dev/null 2>&1; then
  # (plain shell matching: the mc image is minimal and has no grep)
  info=$(mc admin user info "$ALIAS" "$STORAGE_S3_ACCESS_KEY" 2>&1 || true)
  case "$info" in
    *"$POLICY"*) echo "minio-init: policy $POLICY already attached to $STORAGE_S3_ACCESS_KEY" ;;
    *)
      echo "minio-init: could not attach policy $POLICY to $STORAGE_S3_ACCESS_KEY" >&2
      exit 1
      ;;
  esac
fi

echo "minio-init: buckets ready: $STORAGE_BUCKETS"

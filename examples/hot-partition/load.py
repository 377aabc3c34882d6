"""Writes sensor readings to Stator at a steady rate for a few seconds and counts the throttled
writes.

    python3 load.py --table SensorsByDate --key date      # every reading under "2026-03-01"
    python3 load.py --table SensorsBySensor --key sharded # "sensor-17#2026-03", one per sensor

Needs boto3. The server must run with --capacity enforce for throttles to be refused.
"""
import argparse
import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

parser = argparse.ArgumentParser()
parser.add_argument("--endpoint", default="http://127.0.0.1:8000")
parser.add_argument("--table", required=True)
parser.add_argument("--key", choices=["date", "sharded"], required=True)
parser.add_argument("--seconds", type=float, default=10)
parser.add_argument("--sensors", type=int, default=100)
# 250 readings of 16 WCU a second: 4,000 WCU/s, four times one partition's 1,000 and well
# inside the table's 10,000. Paced, so a faster client does not exhaust the table as a whole.
parser.add_argument("--rate", type=float, default=250, help="writes per second")
args = parser.parse_args()

db = boto3.client(
    "dynamodb", endpoint_url=args.endpoint, region_name="us-east-1",
    aws_access_key_id="example", aws_secret_access_key="example",
    config=Config(retries={"total_max_attempts": 1}))

try:
    db.create_table(
        TableName=args.table,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "ts", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "ts", "KeyType": "RANGE"}],
        ProvisionedThroughput={"ReadCapacityUnits": 1000, "WriteCapacityUnits": 10000})
except ClientError as e:
    if e.response["Error"]["Code"] != "ResourceInUseException":
        raise

payload = "x" * 16000  # a 16 KB reading: 16 WCU
written = throttled = 0
n = 0
reasons = set()
start = time.time()
end = start + args.seconds
while time.time() < end:
    ahead = start + n / args.rate - time.time()
    if ahead > 0:
        time.sleep(ahead)
    sensor = n % args.sensors
    pk = "2026-03-01" if args.key == "date" else f"sensor-{sensor}#2026-03"
    try:
        db.put_item(TableName=args.table, Item={
            "pk": {"S": pk}, "ts": {"N": str(n)}, "sensor": {"N": str(sensor)},
            "reading": {"S": payload}})
        written += 1
    except ClientError as e:
        if e.response["Error"]["Code"] != "ProvisionedThroughputExceededException":
            raise
        throttled += 1
        for r in e.response.get("ThrottlingReasons", []):
            reasons.add(r["reason"])
    n += 1

print(f"{args.table}: {written} written, {throttled} throttled"
      f" ({written * 16 / args.seconds:.0f} WCU/s served of {n * 16 / args.seconds:.0f} asked)"
      + (f", reasons: {', '.join(sorted(reasons))}" if reasons else ""))

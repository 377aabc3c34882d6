-- UpdateItem with a condition that holds: increment the counter of an existing item.
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")

function next_request()
  local pk, sk = random_key()
  return "UpdateItem", string.format(
    '{"TableName":"%s","Key":%s,"UpdateExpression":"SET n = n + :one",'
      .. '"ConditionExpression":"attribute_exists(pk) AND n >= :zero",'
      .. '"ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"}}}',
    TABLE, key_json(pk, sk))
end

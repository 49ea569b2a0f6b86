"""The class store's Lua scripts on Redis (``server/redis_store.py``): every change of
a class is one script, atomic in Redis (300 students answering at once cannot lose an answer
or pass a limit). Each checks the class, applies the change, bumps ``seq`` and ``touched``,
refreshes the keys' expiry and publishes.
"""

from __future__ import annotations

#: An ended class's record stays this long (seconds) for late followers to learn it ended.
ENDED_SECONDS = 3600

# ------------------------------------------------------------------------ the Lua scripts
# KEYS: 1 the class hash, 2 the classes index, 3 answers, 4 splits, 5 followers, 6 channel,
# 7 the ids admitted per client address.
# ARGV: 1 now, 2 idle seconds, 3 code, 4 ttl seconds, then the operation's own.
# Every script returns a table whose first item is "ok" or an error word.
_PRELUDE = """
local h, index, chan = KEYS[1], KEYS[2], KEYS[6]
local now, idle, code, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
if redis.call('EXISTS', h) == 0 or redis.call('HGET', h, 'ended') == '1' then
  return {'none'}
end
-- idle too long, or its teacher's page gone (Limits.abandoned_minutes; 'abandon' seconds
-- and 'seen' are the class's own fields)
local abandon = tonumber(redis.call('HGET', h, 'abandon') or '0')
local seen = tonumber(redis.call('HGET', h, 'seen') or ARGV[1])
if now - tonumber(redis.call('HGET', h, 'touched')) > idle
   or (abandon > 0 and now - seen > abandon) then
  redis.call('HSET', h, 'ended', '1')
  local s = redis.call('HINCRBY', h, 'seq', 1)
  redis.call('ZREM', index, code)
  redis.call('EXPIRE', h, @ENDED@)
  redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[7])
  redis.call('PUBLISH', chan, s)
  return {'none'}
end
-- the teacher's page is there (the teacher's operations: their key was checked)
local function teacher_seen() redis.call('HSET', h, 'seen', ARGV[1]) end
local function changed()
  local s = redis.call('HINCRBY', h, 'seq', 1)
  redis.call('HSET', h, 'touched', ARGV[1])
  redis.call('ZADD', index, now, code)
  for _, i in ipairs({1, 3, 4, 5, 7}) do redis.call('EXPIRE', KEYS[i], ttl) end
  redis.call('PUBLISH', chan, s)
  return {'ok', s}
end
""".replace("@ENDED@", str(ENDED_SECONDS))

SCRIPTS = {
    # ARGV 5 key hash, 6 page, 7 query, 8 round ("" = none), 9 the open classes' limit,
    # 10 the owner's address ("" = none), 11 classes per address, 12 the classes' key prefix,
    # 13 the channels' prefix, 14 seconds until a class whose teacher is gone ends
    "open": """
local h, index = KEYS[1], KEYS[2]
local now, idle, code, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', index, '-inf', now - idle)
-- the open classes counted, the abandoned ones ended on the way (nobody may have touched
-- them since their teacher left: they would hold their places)
local mine = 0
for _, c in ipairs(redis.call('ZRANGE', index, 0, -1)) do
  local ch = ARGV[12] .. c
  local abandon = tonumber(redis.call('HGET', ch, 'abandon') or '0')
  local seen = tonumber(redis.call('HGET', ch, 'seen') or ARGV[1])
  if abandon > 0 and now - seen > abandon then
    redis.call('HSET', ch, 'ended', '1')
    local s = redis.call('HINCRBY', ch, 'seq', 1)
    redis.call('ZREM', index, c)
    redis.call('EXPIRE', ch, @ENDED@)
    redis.call('DEL', ch .. ':a', ch .. ':s', ch .. ':f', ch .. ':j')
    redis.call('PUBLISH', ARGV[13] .. c, s)
  elseif ARGV[10] ~= '' and redis.call('HGET', ch, 'owner') == ARGV[10] then
    mine = mine + 1
  end
end
if redis.call('ZCARD', index) >= tonumber(ARGV[9]) then return {'full'} end
if ARGV[10] ~= '' and mine >= tonumber(ARGV[11]) then return {'owner'} end
if redis.call('EXISTS', h) == 1 then return {'taken'} end
redis.call('HSET', h, 'code', code, 'key_hash', ARGV[5], 'page', ARGV[6], 'query', ARGV[7],
  'round', ARGV[8], 'seq', 1, 'touched', ARGV[1], 'question', '', 'revealed', '0',
  'histogram', '[]', 'ended', '0', 'predict', '0', 'mode', '', 'splitn', 0,
  'owner', ARGV[10], 'seen', ARGV[1], 'abandon', ARGV[14])
redis.call('EXPIRE', h, ttl)
redis.call('ZADD', index, now, code)
return {'ok', 1}
""".replace("@ENDED@", str(ENDED_SECONDS)),
    # ARGV 5.. pairs of field, value to set
    "show": _PRELUDE
    + """
teacher_seen()
for i = 5, #ARGV, 2 do redis.call('HSET', h, ARGV[i], ARGV[i + 1]) end
return changed()
""",
    # ARGV 5 the question's JSON ("" = none)
    "ask": _PRELUDE
    + """
teacher_seen()
if redis.call('HGET', h, 'question') ~= ARGV[5] then
  redis.call('HSET', h, 'question', ARGV[5], 'revealed', '0', 'histogram', '[]')
  redis.call('DEL', KEYS[3])
end
return changed()
""",
    # ARGV 5 the question's id ("" = any), 6 correct
    "reveal": _PRELUDE
    + """
teacher_seen()
local q = redis.call('HGET', h, 'question')
if q == '' then return {'noquestion'} end
local question = cjson.decode(q)
if ARGV[5] ~= '' and question['id'] ~= ARGV[5] then return {'noquestion'} end
local n, correct = #question['choices'], tonumber(ARGV[6])
if correct < 0 or correct >= n then return {'badcorrect', n} end
local counts = {}
for i = 1, n do counts[i] = 0 end
for _, c in ipairs(redis.call('HVALS', KEYS[3])) do
  local k = tonumber(c) + 1
  counts[k] = counts[k] + 1
end
question['correct'] = correct
redis.call('HSET', h, 'question', cjson.encode(question), 'revealed', '1',
  'histogram', '[' .. table.concat(counts, ',') .. ']')
return changed()
""",
    # ARGV 5 student, 6 question id, 7 choice, 8 the students' limit
    "answer": _PRELUDE
    + """
local q = redis.call('HGET', h, 'question')
if q == '' or cjson.decode(q)['id'] ~= ARGV[6] then return {'closed'} end
if redis.call('HGET', h, 'revealed') == '1' then return {'revealed'} end
local n, choice = #cjson.decode(q)['choices'], tonumber(ARGV[7])
if choice < 0 or choice >= n then return {'badchoice', n} end
if redis.call('HEXISTS', KEYS[5], ARGV[5]) == 0 then return {'notfollowing'} end
if redis.call('HEXISTS', KEYS[3], ARGV[5]) == 0
   and redis.call('HLEN', KEYS[3]) >= tonumber(ARGV[8]) then
  return {'full'}
end
redis.call('HSET', KEYS[3], ARGV[5], ARGV[7])
return changed()
""",
    # ARGV 5 student, 6 the split's JSON, 7 the submissions' limit
    "submit": _PRELUDE
    + """
if redis.call('HEXISTS', KEYS[4], ARGV[5]) == 0
   and redis.call('HLEN', KEYS[4]) >= tonumber(ARGV[7]) then
  return {'full'}
end
local n = redis.call('HINCRBY', h, 'splitn', 1)
redis.call('HSET', KEYS[4], ARGV[5], n .. '|' .. ARGV[6])
return changed()
""",
    "clear": _PRELUDE
    + """
teacher_seen()
redis.call('DEL', KEYS[4])
return changed()
""",
    # ARGV 5 student, 6 the students' limit, 7 and 8: see below
    "join": _PRELUDE
    + """
if redis.call('HEXISTS', KEYS[5], ARGV[5]) == 0
   and redis.call('HLEN', KEYS[5]) >= tonumber(ARGV[6]) then
  return {'full'}
end
redis.call('HINCRBY', KEYS[5], ARGV[5], 1)
-- what this process holds (ARGV 7 its hash for the class, 8 its set of codes): a process
-- that dies is taken back out of the count (redis_shared.Lease)
redis.call('HINCRBY', ARGV[7], ARGV[5], 1)
redis.call('EXPIRE', ARGV[7], ttl)
redis.call('SADD', ARGV[8], code)
redis.call('EXPIRE', ARGV[8], ttl)
return changed()
""",
    "alive": _PRELUDE
    + """
teacher_seen()
return {'ok', 0}
""",
    # ARGV 5 the client's address ("" = none), 6 ids per address, 7 ids per class
    "admit": _PRELUDE
    + """
if tonumber(redis.call('HGET', h, 'joined') or '0') >= tonumber(ARGV[7]) then
  return {'joinsclass'}
end
if ARGV[5] ~= '' then
  if tonumber(redis.call('HGET', KEYS[7], ARGV[5]) or '0') >= tonumber(ARGV[6]) then
    return {'joinsaddress'}
  end
  redis.call('HINCRBY', KEYS[7], ARGV[5], 1)
  redis.call('EXPIRE', KEYS[7], ttl)
end
redis.call('HINCRBY', h, 'joined', 1)
return {'ok', 0}
""",
    # ARGV 5 student, 6 this process's hash for the class (redis_shared.Lease)
    "leave": _PRELUDE
    + """
-- a page this process no longer holds (a process found dead gave its pages back already)
local mine = tonumber(redis.call('HGET', ARGV[6], ARGV[5]) or '0')
if mine <= 0 then return {'ok', 0} end
if redis.call('HINCRBY', ARGV[6], ARGV[5], -1) <= 0 then redis.call('HDEL', ARGV[6], ARGV[5]) end
if redis.call('HEXISTS', KEYS[5], ARGV[5]) == 0 then return {'ok', 0} end
if redis.call('HINCRBY', KEYS[5], ARGV[5], -1) <= 0 then redis.call('HDEL', KEYS[5], ARGV[5]) end
return changed()
""",
    "end": _PRELUDE
    + """
redis.call('HSET', h, 'ended', '1')
local s = redis.call('HINCRBY', h, 'seq', 1)
redis.call('ZREM', index, code)
redis.call('EXPIRE', h, @ENDED@)
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[7])
redis.call('PUBLISH', chan, s)
return {'ok', s}
""".replace("@ENDED@", str(ENDED_SECONDS)),
}

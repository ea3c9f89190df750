-- wrk script for POST /v1/events/emit to /bench/tick/{n} (the type registered by the bench first, one
-- subscription listening): the write throughput of the event bus.
local headers = {["Content-Type"] = "application/json"}
local counter = 0

request = function()
  counter = counter + 1
  return wrk.format("POST", "/v1/events/emit", headers, '{"loc": "/bench/tick/' .. counter .. '"}')
end

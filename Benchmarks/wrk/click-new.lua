-- wrk script for the links listener's click rows, every request new: `/users/<run>-<number>`, a link of its own
-- (another user), so that no two requests of any run are the same and none is answered from the clicks the service
-- keeps (the rows of clicks decided). The User-Agent comes from wrk's -H, as for the repeated rows.
local prefix = nil
local sent = 0

init = function(args)
  -- A run's own prefix, from the kernel's random bytes (two runs may start within the same second).
  local random = io.open("/dev/urandom", "rb")
  local bytes = random:read(8)
  random:close()
  prefix = "/users/" .. bytes:gsub(".", function(byte) return string.format("%02x", byte:byte()) end) .. "-"
end

request = function()
  sent = sent + 1
  return wrk.format("GET", prefix .. sent)
end

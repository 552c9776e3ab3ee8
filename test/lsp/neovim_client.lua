-- Neovim's built-in LSP client (Neovim 0.7, Debian's neovim package) on
-- `spirv-conv lsp`, headless: opens every shader of $SPIRV_CONV_SHADERS
-- (separated by newlines), waits for the diagnostics of each and writes them
-- to $SPIRV_CONV_OUT as JSON: {uri: {"received": the publishDiagnostics
-- params, "stored": what vim.diagnostic holds for the buffer}}.
-- test/lsp/neovim_test.py compares them with `spirv-conv lint`.

local spirv_conv = os.getenv("SPIRV_CONV")
local shaders = vim.split(os.getenv("SPIRV_CONV_SHADERS"), "\n", { trimempty = true })
local out = os.getenv("SPIRV_CONV_OUT")
local received = {}

local function fail(message)
  io.stderr:write("neovim_client.lua: " .. message .. "\n")
  vim.cmd("cquit 2")
end

local client_id = vim.lsp.start_client({
  name = "spirv-conv",
  cmd = { spirv_conv, "lsp" },
  root_dir = vim.fn.getcwd(),
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      received[result.uri] = result
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
    end,
  },
})
if client_id == nil then fail("the client did not start") end

local report = {}
for _, shader in ipairs(shaders) do
  vim.cmd("edit " .. vim.fn.fnameescape(shader))
  local buffer = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buffer, client_id)
  local uri = vim.uri_from_bufnr(buffer)
  if not vim.wait(60000, function() return received[uri] ~= nil end, 20) then
    fail("no diagnostics for " .. uri)
  end
  report[uri] = { received = received[uri], stored = vim.diagnostic.get(buffer) }
end

local file = io.open(out, "w")
file:write(vim.fn.json_encode(report))
file:close()
vim.lsp.stop_client(client_id)
vim.cmd("qall!")

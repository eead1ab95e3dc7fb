-- A session in a real editor: Neovim's built-in LSP client runs `fxlint server`,
-- opens a file, and records what the user would see. Driven by
-- neovim_client_test.py through environment variables; writes JSON to $OUT.
local fxlint, root, file, out = os.getenv("FXLINT"), os.getenv("ROOT"), os.getenv("FILE"), os.getenv("OUT")
local result = { steps = {} }

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd("qa!")
end

local function diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(list, { code = lsp.code or "", line = d.lnum, col = d.col, source = d.source or "" })
  end
  table.sort(list, function(a, b) return a.line < b.line or (a.line == b.line and a.col < b.col) end)
  return list
end

local client_id = vim.lsp.start_client({ name = "fxlint", cmd = { fxlint, "server" }, root_dir = root })
vim.cmd("edit " .. file)
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)
local client = vim.lsp.get_client_by_id(client_id)

-- 1. Diagnostics of the file as opened (its caller is on disk, not open).
if not vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20) then
  result.error = "no diagnostics after opening"
  return finish()
end
result.steps.opened = diagnostics(bufnr)

-- 2. Typing: the client sends incremental changes; diagnostics follow.
local before = #vim.diagnostic.get(bufnr)
-- `return t.item()` becomes `return t.item() + t.sum().item()`: a second FX101.
local last = vim.api.nvim_buf_line_count(bufnr) - 1
local line = vim.api.nvim_buf_get_lines(bufnr, last, last + 1, false)[1]
vim.api.nvim_buf_set_text(bufnr, last, #line, last, #line, { " + t.sum().item()" })
if not vim.wait(20000, function() return #vim.diagnostic.get(bufnr) ~= before end, 20) then
  result.error = "diagnostics did not follow the edit"
  return finish()
end
result.steps.edited = diagnostics(bufnr)
result.edited_text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") .. "\n"

-- 3. Hover on the first diagnostic.
local first = vim.diagnostic.get(bufnr)[1]
local hover = client.request_sync("textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  position = { line = first.lnum, character = first.col },
}, 10000, bufnr)
result.hover = hover and hover.result and hover.result.contents and hover.result.contents.value or ""

-- 4. Fix all, applied as the editor applies it.
local actions = client.request_sync("textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } },
  context = { diagnostics = {}, only = { "source.fixAll.fxlint" } },
}, 10000, bufnr)
result.fix_all = false
for _, action in ipairs(actions and actions.result or {}) do
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
    result.fix_all = true
  end
end
result.fixed_text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") .. "\n"
finish()

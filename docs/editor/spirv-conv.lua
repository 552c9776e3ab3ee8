-- spirv-conv's language server in Neovim 0.7 and later (docs/editor.md).
--
-- Copy this file to ~/.config/nvim/lua/spirv-conv.lua and add
-- `require("spirv-conv")` to init.lua. It starts `spirv-conv lsp` for the
-- shader files of the current directory's project, and shows each
-- diagnostic's explanation (its relatedInformation) in the diagnostic
-- float (`:lua vim.diagnostic.open_float()`).

local patterns = {
  "*.vert", "*.frag", "*.comp", "*.geom", "*.tesc", "*.tese", "*.mesh", "*.task",
  "*.rgen", "*.rint", "*.rahit", "*.rchit", "*.rmiss", "*.rcall",
  "*.glsl", "*.hlsl", "*.hlsli", "*.spvasm",
}

-- The server's settings (docs/editor.md#settings): relative include paths are
-- relative to the project's root, Neovim's working directory here.
local settings = {
  ["spirv-conv"] = {
    includePaths = { "shaders/include" },
    defines = {},
    targetEnv = "vulkan1.2",
    rules = {},  -- e.g. ["nonuniform-redundant-decoration"] = "off"
  },
}

local client_id = nil

local function client()
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client({
      name = "spirv-conv",
      cmd = { vim.g.spirv_conv_command or "spirv-conv", "lsp" },
      root_dir = vim.fn.getcwd(),
      init_options = settings,
      settings = settings,
    })
  end
  return client_id
end

vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
  pattern = patterns,
  callback = function(args)
    vim.lsp.buf_attach_client(args.buf, client())
  end,
})

-- The explanation chain under the message: each step at its file and line.
vim.diagnostic.config({
  float = {
    format = function(diagnostic)
      local text = diagnostic.message
      if diagnostic.code then text = text .. " [" .. diagnostic.code .. "]" end
      local lsp = diagnostic.user_data and diagnostic.user_data.lsp or {}
      for _, info in ipairs(lsp.relatedInformation or {}) do
        local file = vim.fn.fnamemodify(vim.uri_to_fname(info.location.uri), ":t")
        text = text .. "\n  " .. file .. ":" .. (info.location.range.start.line + 1) ..
          ": " .. info.message
      end
      return text
    end,
  },
})

// Copyright (c) 2026 The spirv-conv authors
// SPDX-License-Identifier: Apache-2.0
//
// spirv-conv opt: load -> validate -> spirv-opt passes, each checked ->
// NonUniform passes -> validate -> write.

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.h"
#include "common.h"
#include "optimizer_log.h"
#include "spirv_conv/device_profile.h"
#include "spirv_conv/emit.h"
#include "spirv_conv/pass_registry.h"
#include "spirv_conv/pass_report.h"
#include "spirv_conv/pipeline.h"
#include "spirv_conv/report.h"
#include "spirv_conv/target_env.h"

namespace spirv_conv {
namespace cli {
namespace {

namespace fs = std::filesystem;

// The order the NonUniform passes run in, whatever the order of their flags
// (docs/passes.md), after the passes --lower-nonuniform chooses.
constexpr const char* kNonUniformOrder[] = {"descriptor-switch", "waterfall", "fix-nonuniform",
                                            "strip-nonuniform"};

// Where the result for |input| goes: |output| itself for one input, else a
// file named after the input inside the directory |output|.
std::string OutputPathFor(const std::string& input, const std::string& output, bool into_dir,
                          bool text) {
  if (!into_dir) return output;
  fs::path name = fs::path(input == "-" ? "stdin" : input).filename();
  name.replace_extension(text ? ".spvasm" : ".spv");
  return (fs::path(output) / name).string();
}

// The blank-separated flags of --passes.
std::vector<std::string> SplitFlags(const std::string& text) {
  std::istringstream stream(text);
  std::vector<std::string> flags;
  for (std::string flag; stream >> flag;) flags.push_back(flag);
  return flags;
}

}  // namespace

Command AddOptCommand(CLI::App& app) {
  struct Flags {
    InputFlags input;
    std::vector<std::string> files;
    std::string output;
    bool text = false;
    bool skip_validation = false;
    int verbose = 0;
    bool no_concurrent_writes = false;
    std::map<std::string, bool> nonuniform;  // pass name -> its flag was given
    bool lower_nonuniform = false;
    std::string device;
    std::string report;
    std::string depfile;
    bool optimize = false;
    std::string spirv_opt_passes;
    bool strict = false;
    bool no_pass_isolation = false;
    bool check_each_pass = false;
    bool structurize = false;
    bool reconverge = false;
    bool reconverge_everywhere = false;
    bool fast_forward = false;
    bool fast_forward_everywhere = false;
    uint32_t fast_forward_window = 0;
    std::string fast_forward_profile;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(
      "opt",
      "Run the pass pipeline: load, validate, transform, validate the result, write it. Output "
      "is written atomically and only when spirv-val accepts it; an input is never overwritten.");
  AddFilesOption(command, &flags->files);
  command
      ->add_option("-o", flags->output,
                   "Output file (- for stdout); with several inputs, an existing directory")
      ->required();
  command->add_flag("--text", flags->text, "Write SPIR-V assembly instead of a binary");
  command->add_flag("--skip-validation", flags->skip_validation,
                    "Do not validate the input (the output is validated regardless)");
  command->add_flag("-v,--verbose", flags->verbose,
                    "Print one line per module written (what the passes did); twice (-vv), also "
                    "one line per spirv-opt pass");
  command->add_option("--depfile", flags->depfile,
                      "Also write a Make-style dependency file: each output depends on its "
                      "GLSL/HLSL input and every file it #includes (for CMake's DEPFILE, Ninja)");
  AddInputFlags(command, &flags->input);

  // Control flow (docs/structurize.md): first of all.
  const char* kControlFlow = "Control flow (docs/structurize.md)";
  command->add_flag("--structurize", flags->structurize, FindPass("structurize")->summary)
      ->group(kControlFlow);
  command->add_flag("--reconverge", flags->reconverge, FindPass("reconverge")->summary)
      ->group(kControlFlow);
  command
      ->add_flag("--reconverge-everywhere", flags->reconverge_everywhere,
                 "With --reconverge: apply it to every function, also where the estimate says "
                 "it issues more (to measure the transform itself)")
      ->group(kControlFlow);
  command
      ->add_flag("--fast-forward-loops", flags->fast_forward,
                 FindPass("fast-forward-loops")->summary)
      ->group(kControlFlow);
  command
      ->add_flag("--fast-forward-loops-everywhere", flags->fast_forward_everywhere,
                 "With --fast-forward-loops: every loop that meets the preconditions, also where "
                 "the estimate expects no gain (to measure the transform itself)")
      ->group(kControlFlow);
  command
      ->add_option("--fast-forward-window", flags->fast_forward_window,
                   "With --fast-forward-loops: the window D (iterations an invocation may run "
                   "ahead), instead of the cost model's choice among 1, 2, 4, 8 and 16")
      ->check(CLI::Range(1u, 1u << 20))
      ->group(kControlFlow);
  command
      ->add_option("--fast-forward-profile", flags->fast_forward_profile,
                   "With --fast-forward-loops: the statistics of a run of this module "
                   "(`spirv-conv run --stats json -o FILE`), to measure how often each loop takes "
                   "its expensive arm instead of assuming it is rare, and inner loops' trips "
                   "(merging an inner loop needs them)")
      ->group(kControlFlow);

  // spirv-opt's passes under the motion guard (docs/motion.md). They run
  // before the NonUniform passes.
  const char* kOptimizer = "Convergence-safe spirv-opt (docs/motion.md#spirv-conv-opt--o)";
  command
      ->add_flag("-O", flags->optimize,
                 "Run spirv-opt -O's passes, checked against the input; when the check fails, "
                 "one at a time, rolling back each pass that moves a convergent operation into "
                 "divergent control flow, a co-convergent one across it, or makes a uniform "
                 "operand non-uniform")
      ->group(kOptimizer);
  command
      ->add_option("--passes", flags->spirv_opt_passes,
                   "Passes to run in this order, blank-separated, after -O's: spirv-opt flags, "
                   "checked the same way (\"-Os\" and \"--legalize-hlsl\" expand to their "
                   "passes), and our NonUniform passes by flag (--fix-nonuniform, ...)")
      ->group(kOptimizer);
  command
      ->add_flag("--strict", flags->strict,
                 "Stop with exit 1 at the first pass that would be rolled back")
      ->group(kOptimizer);
  command
      ->add_flag("--no-pass-isolation", flags->no_pass_isolation,
                 "Run the spirv-opt passes in this process instead of a child process "
                 "(faster; a pass that crashes then ends spirv-conv)")
      ->group(kOptimizer);
  command
      ->add_flag("--check-each-pass", flags->check_each_pass,
                 "Check every spirv-opt pass on its own from the start, instead of the whole "
                 "sequence first (the per-pass outcomes and times of --report and -vv)")
      ->group(kOptimizer);

  // The NonUniform passes (docs/passes.md), from the pass registry; they run
  // in kNonUniformOrder.
  const char* kPasses = "NonUniform passes (docs/passes.md)";
  for (const PassInfo& pass : Passes()) {
    if (pass.kind != PassKind::kNonUniform) continue;
    command->add_flag(std::string("--") + pass.name, flags->nonuniform[pass.name], pass.summary)
        ->group(kPasses);
  }
  CLI::Option* lower =
      command
          ->add_flag("--lower-nonuniform", flags->lower_nonuniform,
                     "Per descriptor class, the rewrite --device needs: descriptor-switch, "
                     "waterfall or fix-nonuniform")
          ->group(kPasses);
  command
      ->add_option("--device", flags->device,
                   "Device for --lower-nonuniform: lavapipe, desktop, a `vulkaninfo --json` "
                   "file, or a profile file (docs/passes.md#device-profiles)")
      ->group(kPasses);
  lower->needs("--device");
  command
      ->add_option("--report", flags->report,
                   "Write what the passes changed as JSON (docs/passes.md#report); '-' for stdout")
      ->group(kPasses);
  AddConcurrentWritesFlag(command, &flags->no_concurrent_writes)->group(kPasses);

  return [flags]() {
    Expected<LoadOptions> options = ToLoadOptions(flags->input);
    if (!options) return Report(options.error());
    const bool into_dir = flags->files.size() > 1;
    if (into_dir && !fs::is_directory(flags->output)) {
      return Report(Error{
          ExitCode::kBadInput,
          "several inputs need -o to name an existing directory, not '" + flags->output + "'"});
    }
    // Two inputs named alike ("x/a.spv", "y/a.spv") would write one file:
    // refuse before anything is written.
    std::vector<std::string> output_paths;
    std::map<std::string, std::string> input_of;  // output path -> input
    for (const std::string& file : flags->files) {
      const std::string& path =
          output_paths.emplace_back(OutputPathFor(file, flags->output, into_dir, flags->text));
      auto [it, inserted] = input_of.emplace(path, file);
      if (!inserted) {
        return Report(MakeError(ExitCode::kBadInput, file,
                                "its output '" + path + "' would also be the output of '" +
                                    it->second + "'; run them separately"));
      }
    }
    PipelineOptions pipeline;
    pipeline.validator = flags->input.validator;
    pipeline.skip_input_validation = flags->skip_validation;
    if (flags->reconverge_everywhere) {
      if (!flags->reconverge) {
        return Report(Error{ExitCode::kBadInput, "--reconverge-everywhere needs --reconverge"});
      }
      pipeline.reconverge_policy = ReconvergePolicy::kEverywhere;
    }
    if ((flags->fast_forward_everywhere || flags->fast_forward_window != 0 ||
         !flags->fast_forward_profile.empty()) &&
        !flags->fast_forward) {
      return Report(Error{ExitCode::kBadInput,
                          "--fast-forward-loops-everywhere, --fast-forward-window and "
                          "--fast-forward-profile need --fast-forward-loops"});
    }
    std::optional<BlockProfile> profile;
    if (!flags->fast_forward_profile.empty()) {
      Expected<BlockProfile> loaded = LoadBlockProfile(flags->fast_forward_profile);
      if (!loaded) return Report(loaded.error());
      profile = std::move(*loaded);
    }
    if (flags->fast_forward_everywhere) {
      pipeline.fast_forward.policy = FastForwardPolicy::kEverywhere;
    }
    pipeline.fast_forward.window = flags->fast_forward_window;
    pipeline.fast_forward.profile = profile ? &*profile : nullptr;
    pipeline.nonuniform.uniformity.assume_no_concurrent_writes = flags->no_concurrent_writes;
    if (flags->lower_nonuniform) {
      Expected<DeviceProfile> device = LoadDeviceProfile(flags->device);
      if (!device) return Report(device.error());
      pipeline.lower_for = *device;
    } else if (!flags->device.empty()) {
      return Report(Error{ExitCode::kBadInput, "--device is only used by --lower-nonuniform"});
    }
    if (flags->report == "-" && flags->output == "-") {
      return Report(Error{ExitCode::kBadInput, "--report - and -o - would both write to stdout"});
    }
    // --fast-forward-loops, then --reconverge (both structurize too) or
    // --structurize first of all,
    // then -O, then --passes in its order (spirv-opt flags expanded to
    // single passes; ours by registry name), then the NonUniform flags'
    // passes.
    std::vector<std::string> entries = SplitFlags(flags->spirv_opt_passes);
    if (flags->optimize) entries.insert(entries.begin(), "-O");
    if (flags->reconverge) {
      entries.insert(entries.begin(), "--reconverge");
    } else if (flags->structurize && !flags->fast_forward) {
      entries.insert(entries.begin(), "--structurize");
    }
    // Fast-forwarding before predicated reconvergence: it needs the loops as
    // the source wrote them (and structurizes its own output).
    if (flags->fast_forward) entries.insert(entries.begin(), "--fast-forward-loops");
    bool any_optimizer_pass = false;
    for (const std::string& entry : entries) {
      const PassInfo* ours = entry.rfind("--", 0) == 0 ? FindPass(entry.substr(2)) : nullptr;
      if (ours != nullptr &&
          (ours->kind == PassKind::kNonUniform || ours->kind == PassKind::kControlFlow)) {
        pipeline.passes.push_back(ours->name);
        continue;
      }
      if (ours != nullptr) {
        return Report(Error{ExitCode::kBadInput,
                            "--passes: " + entry + " computes nothing to run in a pipeline"});
      }
      Expected<std::vector<std::string>> single =
          ExpandOptimizerFlags({entry}, SPV_ENV_UNIVERSAL_1_6);
      if (!single) return Report(single.error());
      any_optimizer_pass |= !single->empty();
      pipeline.passes.insert(pipeline.passes.end(), single->begin(), single->end());
    }
    for (const char* name : kNonUniformOrder) {
      if (flags->nonuniform[name]) pipeline.passes.push_back(name);
    }
    pipeline.optimizer.strict = flags->strict;
    pipeline.optimizer.isolate_passes = !flags->no_pass_isolation;
    pipeline.optimizer.check_each_pass = flags->check_each_pass;
    pipeline.optimizer.motion.uniformity = pipeline.nonuniform.uniformity;
    if (flags->strict && !any_optimizer_pass) {
      return Report(Error{ExitCode::kBadInput, "--strict needs -O or --passes"});
    }
    std::vector<ModuleChanges> report;
    // The passes' child process, forked before any module is loaded.
    if (any_optimizer_pass && pipeline.optimizer.isolate_passes) StartOptimizerWorker();

    int exit_code = 0;
    std::vector<DependencyRule> dependencies;
    for (size_t i = 0; i < flags->files.size(); ++i) {
      const std::string& file = flags->files[i];
      Expected<SpirvBinary> binary = LoadSpirv(file, *options);
      if (!binary) {
        report.push_back({file, "", binary.error().message, {}});
        exit_code = Worst(exit_code, Report(binary.error()));
        continue;
      }
      ChangeLog changes;
      std::vector<OptimizerPassResult> optimizer_passes;
      pipeline.optimizer.motion.before_path = pipeline.optimizer.motion.after_path = file;
      Expected<std::vector<uint32_t>> words =
          RunPipeline(*binary, pipeline, &changes, &optimizer_passes);
      std::cerr << RenderOptimizerLog(binary->name, optimizer_passes, flags->verbose > 1);
      if (!words) {
        report.push_back({binary->name, "", words.error().message, {}, optimizer_passes});
        exit_code = Worst(exit_code, Report(words.error()));
        continue;
      }
      std::string contents;
      if (flags->text) {
        Expected<std::string> text =
            Disassemble(*words, binary->target_env, DisassembleOptions(), binary->name);
        if (!text) {
          exit_code = Worst(exit_code, Report(text.error()));
          continue;
        }
        contents = std::move(*text);
      } else {
        contents = WordsToBytes(*words);
      }
      const std::string& path = output_paths[i];
      Status written = WriteOutput(path, contents, flags->files);
      if (!written) {
        exit_code = Worst(exit_code, Report(written.error()));
        continue;
      }
      if (flags->verbose > 0) {
        std::cerr << binary->name << " -> " << path << ": " << words->size() << " words, valid for "
                  << TargetEnvName(binary->target_env) << ", " << changes.size() << " changes"
                  << OptimizerSummary(optimizer_passes) << "\n";
      }
      dependencies.push_back({path, binary->source_files.empty() ? std::vector<std::string>{file}
                                                                 : binary->source_files});
      report.push_back({binary->name, path, "", std::move(changes), std::move(optimizer_passes)});
    }
    if (!flags->depfile.empty() && exit_code == 0) {
      Status written = WriteOutput(flags->depfile, DependencyRules(dependencies), flags->files);
      if (!written) exit_code = Worst(exit_code, Report(written.error()));
    }
    if (!flags->report.empty()) {
      Status written = WriteOutput(flags->report, RenderPassReport(report), flags->files);
      if (!written) exit_code = Worst(exit_code, Report(written.error()));
    }
    return exit_code;
  };
}

}  // namespace cli
}  // namespace spirv_conv

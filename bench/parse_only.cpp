// Baseline for the check benchmark: read and parse the given files with the
// same tree-sitter build fxlint uses, and nothing else.
#include <atomic>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <tree_sitter/api.h>

extern "C" const TSLanguage* tree_sitter_python();

int main(int argc, char** argv) {
  unsigned jobs = 1;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--jobs" && i + 1 < argc) {
      jobs = static_cast<unsigned>(std::stoul(argv[++i]));
    } else if (a == "-") {
      for (std::string line; std::getline(std::cin, line);) paths.push_back(line);
    } else {
      paths.push_back(a);
    }
  }
  if (jobs == 0) jobs = std::thread::hardware_concurrency();
  std::atomic<size_t> next{0}, errors{0};
  auto work = [&] {
    TSParser* parser = ts_parser_new();
    ts_parser_set_language(parser, tree_sitter_python());
    for (size_t i = next++; i < paths.size(); i = next++) {
      std::ifstream in(paths[i], std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string text = ss.str();
      TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
      if (ts_node_has_error(ts_tree_root_node(tree))) ++errors;
      ts_tree_delete(tree);
    }
    ts_parser_delete(parser);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  std::cout << paths.size() << " files parsed, " << errors << " with errors\n";
}

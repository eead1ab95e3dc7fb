// Baseline for the check benchmark: read and parse the given files with the
// same tree-sitter build fxlint uses, and nothing else.
#include <atomic>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/syntax_tree.h"

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
    for (size_t i = next++; i < paths.size(); i = next++) {
      std::ifstream in(paths[i], std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      fxlint::SyntaxTree tree = fxlint::SyntaxTree::parse(ss.str());
      if (tree.has_error()) ++errors;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  std::cout << paths.size() << " files parsed, " << errors << " with errors\n";
}

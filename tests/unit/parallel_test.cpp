#include "tests/support/catch.h"

#include <atomic>
#include <stdexcept>

#include "core/parallel.h"

TEST_CASE("an item that throws does not stop the others, and the caller gets the exception") {
  for (unsigned jobs : {1u, 2u, 4u}) {
    INFO("jobs " << jobs);
    std::atomic<int> done{0};
    bool thrown = false;
    try {
      fxlint::parallel_for(50, jobs, [&](size_t i) {
        if (i == 3 || i == 30) throw std::out_of_range("stod");
        ++done;
      });
    } catch (const std::out_of_range& e) {
      thrown = true;
      CHECK(std::string(e.what()) == "stod");
    }
    CHECK(thrown);
    CHECK(done == 48);
  }
}

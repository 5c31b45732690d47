# octoref — the README's commands. `make run` opens the app, `make test` runs every check.
SHELL := /bin/bash
CARGO ?= cargo

# Debian/Ubuntu packages the build, the app and the tests need.
#  - OpenCV 4.6 with contrib (ArUco) and the clang the opencv crate binds with
#  - V4L headers for the camera (nokhwa)
#  - the X11/Wayland/GL/Vulkan runtime eframe/egui load, Mesa's software Vulkan for egui_kittest,
#    Xvfb, xdotool and optipng for whole-app screenshots (docs/screenshots/take.sh), fonts
DEB_PACKAGES := \
	build-essential pkg-config clang libclang-dev llvm-dev mold \
	libopencv-dev libopencv-contrib-dev \
	libv4l-dev linux-libc-dev \
	libx11-dev libxcursor-dev libxrandr-dev libxi-dev libxkbcommon-dev libxkbcommon-x11-0 \
	libwayland-dev libgl1 libegl1 libgles2 libgl1-mesa-dri libvulkan1 mesa-vulkan-drivers \
	xvfb xauth x11-utils imagemagick xdotool optipng fonts-dejavu-core

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps run test bench build fmt clippy fuzz
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "system packages: all present"; fi

build: deps
	$(CARGO) build --release --all-targets

run: deps
	$(CARGO) run --release

test: deps
	$(CARGO) build --all-targets
	$(CARGO) test --all-targets
	$(CARGO) test --doc
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) fmt --check

bench: deps
	$(CARGO) bench

# Fuzzing (not part of `make test`): every target in fuzz/fuzz_targets for FUZZ_SECONDS each, one
# after the other (libFuzzer through cargo-fuzz, with AddressSanitizer). cargo-fuzz wants a
# nightly compiler; RUSTC_BOOTSTRAP=1 lets the stable one take its flags. The seed corpus in
# fuzz/seeds/<target> is copied into the working corpus fuzz/corpus/<target> (not committed);
# crashes land in fuzz/artifacts/<target>. A hang (a run over FUZZ_TIMEOUT s), a single
# allocation over FUZZ_MALLOC_MB or a resident size over FUZZ_RSS_MB is a finding like a panic.
# `make fuzz FUZZ_TARGETS="score_otto image_file" FUZZ_SECONDS=600` narrows and lengthens a run.
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB ?= 1024
FUZZ_MALLOC_MB ?= 512
FUZZ_TARGETS ?= $(notdir $(basename $(wildcard fuzz/fuzz_targets/*.rs)))
FUZZ_ENV := RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Clink-arg=-fuse-ld=mold"
fuzz: deps
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked
	$(FUZZ_ENV) $(CARGO) fuzz build
	@set -eo pipefail; for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$t; \
		if [ -d fuzz/seeds/$$t ]; then cp -n fuzz/seeds/$$t/* fuzz/corpus/$$t/ 2>/dev/null || true; fi; \
		echo "== $$t: $(FUZZ_SECONDS) s"; \
		$(FUZZ_ENV) $(CARGO) fuzz run $$t fuzz/corpus/$$t -- \
			-max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) \
			-rss_limit_mb=$(FUZZ_RSS_MB) -malloc_limit_mb=$(FUZZ_MALLOC_MB) \
			-print_final_stats=1 2>&1 | tail -n 25; \
	done

# The full soak (reliability issue, item 5): the demo under the live referee's loop for 30 minutes,
# memory and frame times printed and written to target/soak.json. `make test` runs the short form
# (OCTOREF_SOAK_SECONDS defaults to 20).
SOAK_SECONDS ?= 1800
.PHONY: soak
soak: deps
	OCTOREF_SOAK_SECONDS=$(SOAK_SECONDS) $(CARGO) test --test soak -- --nocapture

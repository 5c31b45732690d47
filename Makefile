# octoref — the README's commands. `make run` opens the app, `make test` runs every check.
SHELL := /bin/bash
CARGO ?= cargo

# Debian/Ubuntu packages the build, the app and the tests need.
#  - OpenCV 4.6 with contrib (ArUco) and the clang the opencv crate binds with
#  - V4L headers for the camera (nokhwa)
#  - the X11/Wayland/GL/Vulkan runtime eframe/egui load, Mesa's software Vulkan for egui_kittest,
#    Xvfb for whole-app screenshots, fonts
DEB_PACKAGES := \
	build-essential pkg-config clang libclang-dev llvm-dev mold \
	libopencv-dev libopencv-contrib-dev \
	libv4l-dev linux-libc-dev \
	libx11-dev libxcursor-dev libxrandr-dev libxi-dev libxkbcommon-dev libxkbcommon-x11-0 \
	libwayland-dev libgl1 libegl1 libgles2 libgl1-mesa-dri libvulkan1 mesa-vulkan-drivers \
	xvfb xauth x11-utils imagemagick fonts-dejavu-core

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps run test bench build fmt clippy
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

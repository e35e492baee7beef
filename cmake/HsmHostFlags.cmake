# Warnings and sanitizers for the project's host C code.

function(hsm_host_warnings tgt)
  target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes>)
endfunction()

if(HIPSOFTMAX_SANITIZE)
  # Applied to everything built from here on; device code is compiled by other drivers and is not affected
  # (the per-vendor kernel flags set their own options).
  add_compile_options($<$<COMPILE_LANGUAGE:C>:-fsanitize=address,undefined> $<$<COMPILE_LANGUAGE:C>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:C>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=address,undefined)
endif()

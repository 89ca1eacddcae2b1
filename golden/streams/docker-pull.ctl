%output %0 Using default tag: latest\015\012latest: Pulling from library/demo\015\012a3ed95caeb02: Pulling fs layer\015\0121b2c3d4e5f60: Pulling fs layer\015\0129f8e7d6c5b4a: Pulling fs layer\015\01200ff00ff00ff: Pulling fs layer\015\0125e5e5e5e5e5e: Pulling fs layer\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [=>                  ]   6%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [>                   ]   2%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [>                   ]   0%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [>                   ]   0%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [>                   ]   0%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [===>                ]  16%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [==>                 ]  12%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [=>                  ]   8%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [>                   ]   4%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [>                   ]   0%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [=====>              ]  26%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [====>               ]  22%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [===>                ]  18%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [==>                 ]  14%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [==>                 ]  10%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [=======>            ]  36%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [======>             ]  32%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [=====>              ]  28%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [====>               ]  24%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [====>               ]  20%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [=========>          ]  46%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [========>           ]  42%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [=======>            ]  38%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [======>             ]  34%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [======>             ]  30%\015\012
%output %0 \033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [===========>        ]  56%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [==========>         ]  52%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [=========>          ]  48%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [========>           ]  44%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [========>           ]  40%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [=============>      ]  66%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [============>       ]  62%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [===========>        ]  58%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [==========>         ]  54%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [==========>         ]  50%\015\012
%output %0 \033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [===============>    ]  76%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [==============>     ]  72%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [=============>      ]  68%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [============>       ]  64%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [============>       ]  60%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [=================>  ]  86%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [================>   ]  82%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [===============>    ]  78%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [==============>     ]  74%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [==============>     ]  70%\015\012\033[5A
%output %0 \033[2Ka3ed95caeb02: Downloading [===================>]  96%\015\012
%output %0 \033[2K1b2c3d4e5f60: Downloading [==================> ]  92%\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [=================>  ]  88%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [================>   ]  84%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [================>   ]  80%\015\012
%output %0 \033[5A
%output %0 \033[2Ka3ed95caeb02: \033[32mPull complete\033[0m\015\012
%output %0 \033[2K1b2c3d4e5f60: \033[32mPull complete\033[0m\015\012
%output %0 \033[2K9f8e7d6c5b4a: Downloading [===================>]  98%\015\012
%output %0 \033[2K00ff00ff00ff: Downloading [==================> ]  94%\015\012
%output %0 \033[2K5e5e5e5e5e5e: Downloading [==================> ]  90%\015\012\033[5A\033[2Ka3ed95caeb02: \033[32mPull complete\033[0m\015\012\033[2K1b2c3d4e5f60: \033[32mPull complete\033[0m\015\012\033[2K9f8e7d6c5b4a: \033[32mPull complete\033[0m\015\012\033[2K00ff00ff00ff: \033[32mPull complete\033[0m\015\012\033[2K5e5e5e5e5e5e: \033[32mPull complete\033[0m\015\012\033[5A\033[2Ka3ed95caeb02: \033[32mPull complete\033[0m\015\012\033[2K1b2c3d4e5f60: \033[32mPull complete\033[0m\015\012\033[2K9f8e7d6c5b4a: \033[32mPull complete\033[0m\015\012\033[2K00ff00ff00ff: \033[32mPull complete\033[0m\015\012\033[2K5e5e5e5e5e5e: \033[32mPull complete\033[0m\015\012\033[5A\033[2Ka3ed95caeb02: \033[32mPull complete\033[0m\015\012\033[2K1b2c3d4e5f60: \033[32mPull complete\033[0m\015\012\033[2K9f8e7d6c5b4a: \033[32mPull complete\033[0m\015\012\033[2K00ff00ff00ff: \033[32mPull complete\033[0m\015\012\033[2K5e5e5e5e5e5e: \033[32mPull complete\033[0m\015\012Digest: sha256:4f2a0c9e1d7b3a5c8e6f0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d\015\012Status: Downloaded newer image for demo:latest\015\012
